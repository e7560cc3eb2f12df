-- Hand-written. OWASP device cookies (docs/decisions/002-sessions-and-auth.md): attempts made with a valid device
-- cookie record its id and are throttled apart from unknown clients (device_id NULL).
ALTER TABLE `login_history` ADD `device_id` text;--> statement-breakpoint
CREATE INDEX `login_history_device_created_at_idx` ON `login_history` (`device_id`,`created_at`);
