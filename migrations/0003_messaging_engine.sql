CREATE TABLE `suppressions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel` text NOT NULL,
	`address` text NOT NULL,
	`reason` text NOT NULL,
	`source` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `suppressions_channel_address_uq` ON `suppressions` (`channel`,`address`);--> statement-breakpoint
CREATE TABLE `sender_pacing` (
	`sender` text PRIMARY KEY NOT NULL,
	`next_slot_ms` integer DEFAULT 0 NOT NULL,
	`day` text DEFAULT '' NOT NULL,
	`day_count` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `broadcasts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`subject` text,
	`content` text NOT NULL,
	`recipient_count` integer DEFAULT 0 NOT NULL,
	`scheduled_at` integer,
	`created_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `broadcasts_created_at_idx` ON `broadcasts` (`created_at`);--> statement-breakpoint
CREATE TABLE `outbox_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sid` text NOT NULL,
	`channel` text NOT NULL,
	`to_address` text NOT NULL,
	`from_address` text NOT NULL,
	`subject` text,
	`body` text NOT NULL,
	`status` text NOT NULL,
	`message_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_messages_sid_uq` ON `outbox_messages` (`sid`);--> statement-breakpoint
CREATE INDEX `outbox_messages_status_idx` ON `outbox_messages` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `outbox_messages_to_idx` ON `outbox_messages` (`to_address`,`created_at`);