-- Auto-responder engine and smart alerts (issue 13).
-- One row per (inbound message, responder) that answered it: the replay guard, the escalation counter's source
-- (triggers of a responder by one number since the last human reply) and the stat cards' figures.
CREATE TABLE `responder_triggers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`responder_id` integer NOT NULL REFERENCES `auto_responders`(`id`) ON DELETE CASCADE,
	`inbound_message_id` integer NOT NULL,
	`phone` text NOT NULL,
	`inbound_at` integer NOT NULL,
	`escalated` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `responder_triggers_inbound_uq` ON `responder_triggers` (`inbound_message_id`, `responder_id`);
--> statement-breakpoint
CREATE INDEX `responder_triggers_phone_idx` ON `responder_triggers` (`responder_id`, `phone`, `id`);
--> statement-breakpoint
CREATE INDEX `responder_triggers_phone_inbound_idx` ON `responder_triggers` (`phone`, `inbound_message_id`);
--> statement-breakpoint
CREATE INDEX `responder_triggers_created_idx` ON `responder_triggers` (`created_at`);
--> statement-breakpoint
-- One alert per inbound reply that matched a keyword bank or an alert profile.
CREATE TABLE `alerts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`inbound_message_id` integer,
	`contact_id` integer REFERENCES `contacts`(`id`) ON DELETE SET NULL,
	`phone` text,
	`content` text NOT NULL,
	`profile_id` integer REFERENCES `alert_profiles`(`id`) ON DELETE SET NULL,
	`bank_ids` text DEFAULT '[]' NOT NULL,
	`profile_ids` text DEFAULT '[]' NOT NULL,
	`priority` text NOT NULL,
	`category` text NOT NULL,
	`intent` text,
	`sentiment` text,
	`confidence` integer,
	`analysis_ms` integer,
	`classification_id` integer,
	`status` text DEFAULT 'unacknowledged' NOT NULL,
	`verdict` text,
	`escalation_due_at` integer,
	`escalated_at` integer,
	`acknowledged_at` integer,
	`acknowledged_by` integer REFERENCES `users`(`id`) ON DELETE SET NULL,
	`is_test` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alerts_inbound_uq` ON `alerts` (`inbound_message_id`);
--> statement-breakpoint
CREATE INDEX `alerts_status_idx` ON `alerts` (`status`, `id`);
--> statement-breakpoint
-- The cron's re-alert reads only the unacknowledged, not yet escalated alerts that are due.
CREATE INDEX `alerts_escalation_due_idx` ON `alerts` (`escalation_due_at`) WHERE `status` = 'unacknowledged' AND `escalated_at` IS NULL;
--> statement-breakpoint
CREATE INDEX `messages_kind_phone_idx` ON `messages` (`phone`, `kind`, `status`);
