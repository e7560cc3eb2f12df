CREATE TABLE `contact_import_rows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`import_id` integer NOT NULL,
	`row_number` integer NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`import_id`) REFERENCES `contact_imports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_import_rows_import_id_idx` ON `contact_import_rows` (`import_id`,`id`);--> statement-breakpoint
CREATE TABLE `contact_imports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_by` integer,
	`file_name` text NOT NULL,
	`status` text DEFAULT 'staged' NOT NULL,
	`duplicate_mode` text DEFAULT 'skip' NOT NULL,
	`total_rows` integer DEFAULT 0 NOT NULL,
	`valid_rows` integer DEFAULT 0 NOT NULL,
	`error_count` integer DEFAULT 0 NOT NULL,
	`rejected_rows` integer DEFAULT 0 NOT NULL,
	`file_duplicates` integer DEFAULT 0 NOT NULL,
	`errors` text DEFAULT '[]' NOT NULL,
	`processed_rows` integer DEFAULT 0 NOT NULL,
	`cursor_row_id` integer DEFAULT 0 NOT NULL,
	`created_count` integer DEFAULT 0 NOT NULL,
	`updated_count` integer DEFAULT 0 NOT NULL,
	`duplicate_count` integer DEFAULT 0 NOT NULL,
	`failure_message` text,
	`completed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `contact_imports_created_by_idx` ON `contact_imports` (`created_by`,`created_at`);--> statement-breakpoint
CREATE INDEX `sessions_last_seen_at_idx` ON `sessions` (`last_seen_at`);