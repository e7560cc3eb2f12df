-- Issue 27 item 7, Web Push to reps' phones (decision 049). Hand-written.
-- A browser's push subscription (RFC 8030): the push service's endpoint and the keys its payloads are encrypted to
-- (RFC 8291). Deleted with its user, and when the push service answers 404/410 (the subscription is gone).
CREATE TABLE `push_subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`endpoint` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`device` text,
	`created_at` integer NOT NULL,
	`last_success_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Subscribe again from the same browser (the same endpoint) updates the row; the 410 delete seeks by endpoint too.
CREATE UNIQUE INDEX `push_subscriptions_endpoint_uq` ON `push_subscriptions` (`endpoint`);
--> statement-breakpoint
-- A user's subscriptions (the fan-out of one notification, the settings card, the per-user bound): one seek.
CREATE INDEX `push_subscriptions_user_idx` ON `push_subscriptions` (`user_id`,`id`);
--> statement-breakpoint
-- What a user wants pushed (no row = both on). Read by primary key.
CREATE TABLE `push_preferences` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`hot_leads` integer DEFAULT true NOT NULL,
	`replies` integer DEFAULT true NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
