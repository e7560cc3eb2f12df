-- Issue 28 item 3 (decision 057): MMS. A picture or file a lead texts in (Twilio's NumMedia / MediaUrlN) is recorded
-- with its message as `pending`, fetched by a job with the account's credentials and kept in R2 (`MEDIA`), never
-- hot-linked from Twilio. Hand-written.
CREATE TABLE `message_media` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` integer NOT NULL,
	`position` integer NOT NULL,
	`source_url` text NOT NULL,
	`content_type` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`r2_key` text,
	`size_bytes` integer,
	`error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- A message's media in order (the thread's pictures, the fetch job, the cascade when a message is archived).
CREATE UNIQUE INDEX `message_media_message_uq` ON `message_media` (`message_id`,`position`);
--> statement-breakpoint
-- When the contact first texted a picture (a utility bill, usually: every proposal starts from one). Shown on the
-- contact page; no index (nothing lists by it yet).
ALTER TABLE `contacts` ADD `bill_received_at` integer;
