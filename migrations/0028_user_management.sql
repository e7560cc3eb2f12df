-- User management (issue 14): a one-time password must be changed at first sign-in; per-user and total activity
-- counts kept by triggers so the User Analytics screen never counts activity_log rows per view.
ALTER TABLE `users` ADD `must_change_password` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `users` ADD `activity_count` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE TABLE `activity_totals` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`total` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `activity_totals` (`id`, `total`) SELECT 1, count(*) FROM `activity_log`;
--> statement-breakpoint
UPDATE `users` SET `activity_count` = (SELECT count(*) FROM `activity_log` a WHERE a.user_id = users.id);
--> statement-breakpoint
CREATE TRIGGER `activity_log_counts_ai` AFTER INSERT ON `activity_log` BEGIN
	UPDATE `activity_totals` SET total = total + 1 WHERE id = 1;
	UPDATE `users` SET activity_count = activity_count + 1 WHERE id = new.user_id;
END;
--> statement-breakpoint
CREATE TRIGGER `activity_log_counts_ad` AFTER DELETE ON `activity_log` BEGIN
	UPDATE `activity_totals` SET total = total - 1 WHERE id = 1;
	UPDATE `users` SET activity_count = activity_count - 1 WHERE id = old.user_id;
END;
--> statement-breakpoint
-- Small facts the system records about itself (the last cron tick, a provider's last error): key → JSON value.
CREATE TABLE `system_status` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
