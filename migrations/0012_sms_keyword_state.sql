-- Hand-written. The last STOP/START keyword applied per phone number, so a replayed or late keyword never undoes a
-- newer one (docs/decisions/004-send-pipeline.md, compliance). Order is the arrival order of first-seen inbound
-- MessageSids (messages.id): Twilio's inbound webhook carries no timestamp.
CREATE TABLE `sms_keyword_state` (
	`address` text PRIMARY KEY NOT NULL,
	`keyword` text NOT NULL,
	`message_id` integer NOT NULL,
	`message_sid` text NOT NULL,
	`nonce` text NOT NULL,
	`applied_at` integer NOT NULL
);
