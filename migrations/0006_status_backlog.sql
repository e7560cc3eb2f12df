CREATE TABLE `status_backlog` (
	`sid` text NOT NULL,
	`status` text NOT NULL,
	`error_code` text,
	`error_message` text,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`sid`, `status`)
);
--> statement-breakpoint
CREATE INDEX `status_backlog_received_at_idx` ON `status_backlog` (`received_at`);