ALTER TABLE `messages` ADD `pacing_deferrals` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sender_pacing` ADD `projected_ms` integer DEFAULT 0 NOT NULL;