-- Issue 28 item 2 (decision 055): appointments a closer sits with a homeowner. Hand-written.
-- `starts_at` is the instant (UTC ms); `time_zone` the homeowner's zone the texts speak in. `next_reminder_at` is when
-- the cron's reminder task next has something to send for it (24 h, then 2 h before; NULL once nothing is left or the
-- appointment is over/cancelled): the task reads only due rows through the partial index below.
CREATE TABLE `appointments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contact_id` integer NOT NULL,
	`closer_user_id` integer,
	`starts_at` integer NOT NULL,
	`duration_minutes` integer DEFAULT 60 NOT NULL,
	`time_zone` text NOT NULL,
	`location` text,
	`meeting_link` text,
	`status` text DEFAULT 'scheduled' NOT NULL,
	`note` text,
	`next_reminder_at` integer,
	`reminders_sent` integer DEFAULT 0 NOT NULL,
	`created_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`closer_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
-- A contact's appointments by time (the contact page; a reply's "the contact's next appointment"; the cascade).
CREATE INDEX `appointments_contact_idx` ON `appointments` (`contact_id`,`starts_at`);
--> statement-breakpoint
-- The reminder task's due scan: only appointments with a reminder still to send are in it.
CREATE INDEX `appointments_reminder_due_idx` ON `appointments` (`next_reminder_at`) WHERE `next_reminder_at` IS NOT NULL;
