-- 10DLC readiness (decision 067): each sending number's and Messaging Service's A2P campaign status, as Twilio last
-- reported it when a superuser checked. The pre-send check warns from these rows without asking Twilio on every
-- page; the primary key is the only lookup, so no other index.
CREATE TABLE `sender_registrations` (
	`sender` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`service_sid` text,
	`campaign_sid` text,
	`use_case` text,
	`checked_at` integer NOT NULL
);
