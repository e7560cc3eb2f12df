-- Issue 27 items 1–2, owners and round-robin assignment (decision 044). Hand-written.
-- A contact's owner: the rep its {{salesRep…}} variables come from and whose list it is on. Set null when a user row
-- is ever deleted (users are deactivated, and deactivation hands the contacts to another user first).
ALTER TABLE `contacts` ADD `owner_user_id` integer REFERENCES `users`(`id`) ON DELETE SET NULL;
--> statement-breakpoint
-- The owner filter on /contacts and "my contacts" (owner_user_id = ? ORDER BY id DESC, keyset on id), the unowned
-- filter (IS NULL) and the deactivation hand-off (owner_user_id = ?): one index seek each.
CREATE INDEX `contacts_owner_idx` ON `contacts` (`owner_user_id`,`id`);
--> statement-breakpoint
-- "Available for new leads": round-robin assignment skips a user who is away (and every inactive user).
ALTER TABLE `users` ADD `available_for_leads` integer DEFAULT true NOT NULL;
--> statement-breakpoint
-- The round-robin cursor: one row, the user who got the last lead. The next one is claimed by one UPDATE … RETURNING
-- (the statement is atomic, so concurrent inbound jobs never get the same turn).
CREATE TABLE `assignment_cursor` (
	`id` integer PRIMARY KEY NOT NULL,
	`last_user_id` integer DEFAULT 0 NOT NULL,
	`updated_at` integer
);
--> statement-breakpoint
INSERT INTO `assignment_cursor` (`id`, `last_user_id`) VALUES (1, 0);
--> statement-breakpoint
-- Upload CSV: the owner chosen for the whole file (null = none), given to every contact the import creates or updates.
ALTER TABLE `contact_imports` ADD `owner_user_id` integer REFERENCES `users`(`id`) ON DELETE SET NULL;
