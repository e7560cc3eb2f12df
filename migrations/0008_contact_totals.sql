CREATE TABLE `contact_totals` (
	`id` integer PRIMARY KEY NOT NULL,
	`n` integer DEFAULT 0 NOT NULL
);
