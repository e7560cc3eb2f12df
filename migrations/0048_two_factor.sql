-- Issue 23 (accounts at ASVS 5 level 2, decision 023). Hand-written.
-- TOTP two-factor: the base32 secret (set when enrolment starts, confirmed when totp_enabled_at is set) and the last
-- 30-second step accepted, so the same code cannot be replayed within its window.
ALTER TABLE `users` ADD `totp_secret` text;
--> statement-breakpoint
ALTER TABLE `users` ADD `totp_enabled_at` integer;
--> statement-breakpoint
ALTER TABLE `users` ADD `totp_last_step` integer;
--> statement-breakpoint
-- One-time recovery codes: only their SHA-256 is kept; used_at marks a spent one. Looked up by (user, hash).
CREATE TABLE `recovery_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`code_hash` text NOT NULL,
	`used_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `recovery_codes_user_hash_uq` ON `recovery_codes` (`user_id`,`code_hash`);
