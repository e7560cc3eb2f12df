-- Issue 27 items 1, 2 and 8 (decision 050). Hand-written.
-- An import's rows that name their own owner in the file (the Owner column): the preview says how many, and that the
-- "Owner of these contacts" select applies only to the others.
ALTER TABLE `contact_imports` ADD `owner_rows` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Owner first: an owned contact's alert goes to its owner at once and to the profile's own recipients only when no
-- person has answered the contact within this many minutes (0 = both at once).
ALTER TABLE `alert_profiles` ADD `owner_escalation_minutes` integer DEFAULT 15 NOT NULL;
--> statement-breakpoint
-- The owner the alert went to first (null = unowned: routed as before).
ALTER TABLE `alerts` ADD `owner_user_id` integer REFERENCES `users`(`id`) ON DELETE SET NULL;
--> statement-breakpoint
-- The profile's recipients waiting on the owner: their addresses, when they are due, and what became of them
-- ('sent', or 'answered' when a person replied to the contact first).
ALTER TABLE `alerts` ADD `deferred_to` text;
--> statement-breakpoint
ALTER TABLE `alerts` ADD `deferred_due_at` integer;
--> statement-breakpoint
ALTER TABLE `alerts` ADD `deferred_outcome` text;
--> statement-breakpoint
-- The cron task's due read: deferred_due_at <= ? over the waiting rows only (set to null once handled).
CREATE INDEX `alerts_deferred_due_idx` ON `alerts` (`deferred_due_at`) WHERE deferred_due_at IS NOT NULL;
--> statement-breakpoint
-- Per-rep figures (User Analytics): one row per rep, UTC day and contact they answered that day, with the number of
-- texts. Replies sent = SUM(replies), conversations handled = COUNT(DISTINCT contact_id) over one primary-key range
-- (user_id, day) — never the messages table. WITHOUT ROWID: the key is the row.
CREATE TABLE `rep_reply_days` (
	-- the rep: the text's sender (messages.created_by)
	`user_id` integer NOT NULL,
	-- YYYY-MM-DD (UTC) of the hand-over to the provider
	`day` text NOT NULL,
	`contact_id` integer NOT NULL,
	-- the rep's texts to this contact that day
	`replies` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY (`user_id`, `day`, `contact_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `rep_reply_days` (user_id, day, contact_id, replies)
SELECT created_by, strftime('%Y-%m-%d', coalesce(sent_at, updated_at) / 1000, 'unixepoch'), contact_id, count(*)
FROM `messages`
WHERE direction = 'outbound' AND channel = 'sms' AND status IN ('sent', 'delivered') AND is_test = 0
	AND kind IN ('quick', 'individual', 'reply') AND contact_id IS NOT NULL AND created_by IS NOT NULL
GROUP BY 1, 2, 3;
--> statement-breakpoint
-- A person's text to a contact handed to the provider (the moment messages_response_times_au counts an answer): one
-- upsert per such text. Campaign, broadcast, auto and staff texts do not fire it (the WHEN), so no write is added to
-- a bulk send.
CREATE TRIGGER `messages_rep_replies_au` AFTER UPDATE OF status ON `messages`
WHEN old.status IN ('pending', 'queued', 'sending', 'held') AND new.status IN ('sent', 'delivered')
	AND new.direction = 'outbound' AND new.channel = 'sms' AND new.contact_id IS NOT NULL AND new.is_test = 0
	AND new.created_by IS NOT NULL AND new.kind IN ('quick', 'individual', 'reply') BEGIN
	INSERT INTO `rep_reply_days` (user_id, day, contact_id, replies)
	VALUES (new.created_by, strftime('%Y-%m-%d', coalesce(new.sent_at, new.updated_at) / 1000, 'unixepoch'), new.contact_id, 1)
	ON CONFLICT(user_id, day, contact_id) DO UPDATE SET replies = replies + 1;
END;
