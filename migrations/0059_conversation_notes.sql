-- Issue 27 item 4, internal notes and @mentions on a conversation (decision 047). Hand-written.
-- A note lives in its own table, never in `messages`: no send path reads this table, so a note cannot be sent.
CREATE TABLE `conversation_notes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text DEFAULT 'note' NOT NULL,
	`contact_id` integer,
	`phone` text,
	`author_user_id` integer,
	`handoff_to` integer,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`handoff_to`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
-- A contact's thread reads its notes in the page's time window (contact_id = ? AND created_at in a range): one seek;
-- it also serves the cascade when a contact is deleted.
CREATE INDEX `conversation_notes_contact_idx` ON `conversation_notes` (`contact_id`,`created_at`);
--> statement-breakpoint
-- A bare number's thread (no contact): the same window on phone.
CREATE INDEX `conversation_notes_phone_idx` ON `conversation_notes` (`phone`,`created_at`) WHERE contact_id IS NULL;
--> statement-breakpoint
-- Who a note mentions. The key (user_id, note_id) is a user's Mentions list, newest first: one seek.
CREATE TABLE `note_mentions` (
	`user_id` integer NOT NULL,
	`note_id` integer NOT NULL,
	PRIMARY KEY(`user_id`, `note_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`note_id`) REFERENCES `conversation_notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- The cascade from a deleted note (its contact deleted) finds the note's mentions without a scan.
CREATE INDEX `note_mentions_note_idx` ON `note_mentions` (`note_id`);
