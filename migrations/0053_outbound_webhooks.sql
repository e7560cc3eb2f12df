-- Issue 26 item 4, outbound webhooks (decision 036). Hand-written.
-- A subscription: where to POST, which events (a JSON array of event types), the signing secret (shown once; the
-- receiver needs the value itself to check the HMAC, so it is stored, not hashed), whether it is on and why not,
-- the run of consecutive failures that disables it, and its own cap (deliveries per hour).
CREATE TABLE `webhook_subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`url` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`events` text DEFAULT '[]' NOT NULL,
	`secret` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`disabled_reason` text,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`failing_since` integer,
	`max_per_hour` integer DEFAULT 600 NOT NULL,
	`created_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
-- One row per event per subscription: the body exactly as signed, and the last attempt's outcome (the delivery log).
-- status: pending (a queue message is on its way) → delivered | retrying (next_attempt_at) | failed (gave up).
CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subscription_id` integer NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`last_attempt_at` integer,
	`last_status_code` integer,
	`last_response` text,
	`last_duration_ms` integer,
	`last_error` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`subscription_id`) REFERENCES `webhook_subscriptions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- An event is delivered once per subscription however often its source runs (a redelivered inbound job), and the
-- delivery log lists a subscription's rows newest first: subscription_id = ? ORDER BY id DESC.
CREATE UNIQUE INDEX `webhook_deliveries_event_uq` ON `webhook_deliveries` (`subscription_id`,`event_id`);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_log_idx` ON `webhook_deliveries` (`subscription_id`,`id`);
--> statement-breakpoint
-- The cron tick's due retries: status = 'retrying' AND next_attempt_at <= ?, only the waiting rows in the index.
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`next_attempt_at`) WHERE status = 'retrying';
--> statement-breakpoint
-- The retention purge (app/jobs/purge-old-rows.server.ts).
CREATE INDEX `webhook_deliveries_created_at_idx` ON `webhook_deliveries` (`created_at`);
