CREATE TABLE `message_counts` (
	`direction` text NOT NULL,
	`status` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`direction`, `status`)
);
--> statement-breakpoint
ALTER TABLE `messages` ADD `kind` text DEFAULT 'individual' NOT NULL;