-- Saved segments (issue 28 item 1, decision 075): a named filter over contacts, kept as its JSON definition and
-- evaluated whenever it is used. A campaign's audience may be one (enrolled at start, re-checked at each step) and so
-- may a broadcast's (its contacts read when it is due: segment_cursor is how far the resolution got, newest first).
CREATE TABLE `segments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`definition` text NOT NULL,
	`created_by` integer REFERENCES `users`(`id`) ON DELETE set null,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `segments_name_uq` ON `segments` (lower("name"));
--> statement-breakpoint
ALTER TABLE `campaigns` ADD `segment_id` integer REFERENCES `segments`(`id`) ON DELETE set null;
--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `segment_id` integer REFERENCES `segments`(`id`) ON DELETE set null;
--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `segment_cursor` integer;
--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `resolved_at` integer;
--> statement-breakpoint
CREATE INDEX `broadcasts_segment_due_idx` ON `broadcasts` (`scheduled_at`) WHERE segment_id IS NOT NULL AND resolved_at IS NULL;
