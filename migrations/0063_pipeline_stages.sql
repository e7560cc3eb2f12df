-- Issue 28 item 1 (decision 053): a pipeline stage per contact. Hand-written.
-- The stages, in board order: a key the code and the API use (never changes), the label the team sees (editable), and
-- what reaching it means for the sale ('open' while it goes on, 'won', 'lost').
CREATE TABLE `pipeline_stages` (
	`key` text PRIMARY KEY NOT NULL,
	`label` text NOT NULL,
	`position` integer NOT NULL,
	`outcome` text DEFAULT 'open' NOT NULL
);
--> statement-breakpoint
INSERT INTO `pipeline_stages` (`key`, `label`, `position`, `outcome`) VALUES
	('new', 'New', 1, 'open'),
	('contacted', 'Contacted', 2, 'open'),
	('appointment_set', 'Appointment set', 3, 'open'),
	('sat', 'Sat', 4, 'open'),
	('sold', 'Sold', 5, 'won'),
	('lost', 'Lost', 6, 'lost'),
	('cancelled', 'Cancelled', 7, 'lost');
--> statement-breakpoint
-- Every contact is somewhere in the pipeline; existing ones start as New (SQLite cannot add a column with a foreign key
-- and a non-null default: the key is checked by setContactStage, the only writer besides the trigger below).
ALTER TABLE `contacts` ADD `stage` text DEFAULT 'new' NOT NULL;
--> statement-breakpoint
-- When the stage last changed: the board's "in this stage for N days", and "no touch in 30 days" later.
ALTER TABLE `contacts` ADD `stage_changed_at` integer;
--> statement-breakpoint
-- A stage's contacts, newest first (the list's stage filter, the board's columns and their counts).
CREATE INDEX `contacts_stage_idx` ON `contacts` (`stage`,`id`);
--> statement-breakpoint
-- The same for a standard user's scope (decision 048): their own, and the unowned, in one stage — two exact seeks.
CREATE INDEX `contacts_owner_stage_idx` ON `contacts` (`owner_user_id`,`stage`,`id`);
--> statement-breakpoint
-- A New lead becomes Contacted when the first text or email to it goes out (accepted by the provider): one
-- primary-key read per sent message, a write only the first time. Staff alerts and tests never count.
CREATE TRIGGER `messages_contacted_au` AFTER UPDATE OF `status` ON `messages`
WHEN new.status IN ('sent', 'delivered') AND old.status NOT IN ('sent', 'delivered') AND new.direction = 'outbound'
	AND new.contact_id IS NOT NULL
	AND new.kind <> 'alert' AND new.is_test = 0
BEGIN
	UPDATE `contacts` SET `stage` = 'contacted', `stage_changed_at` = new.updated_at
	WHERE `id` = new.contact_id AND `stage` = 'new';
END;
