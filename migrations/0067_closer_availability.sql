-- Issue 28 item 2 (decision 058): each closer's weekly hours, from which the login-free booking page offers slots.
-- One window a weekday (0 = Sunday) in the closer's own zone. Hand-written.
CREATE TABLE `closer_availability` (
	`user_id` integer NOT NULL,
	`weekday` integer NOT NULL,
	`start_minute` integer NOT NULL,
	`end_minute` integer NOT NULL,
	`time_zone` text NOT NULL,
	PRIMARY KEY(`user_id`, `weekday`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- A closer's booked times (the booking page leaves them out of the slots it offers).
CREATE INDEX `appointments_closer_idx` ON `appointments` (`closer_user_id`,`starts_at`);
