-- Issue 27, item 4 (decision 046): the Conversations screen is a queue — Mine / Unassigned / All, Open / Snoozed /
-- Closed, and per-user unread counts in the sidebar.
--
-- The owner is denormalised from contacts.owner_user_id onto conversations (kept by the triggers below), so "Mine,
-- newest activity first" is one seek of conversations_queue_idx instead of a join that walks every conversation.
ALTER TABLE `conversations` ADD `owner_user_id` integer REFERENCES `users`(`id`) ON DELETE SET NULL;
--> statement-breakpoint
-- 'open' | 'closed'. A snooze is an open conversation with snoozed_until in the future: once the time has passed it
-- reads as open again, with no task that wakes it (the lists and counts compare with the request's now).
ALTER TABLE `conversations` ADD `status` text NOT NULL DEFAULT 'open';
--> statement-breakpoint
ALTER TABLE `conversations` ADD `snoozed_until` integer;
--> statement-breakpoint
-- The id of the latest inbound message: unread for a user while it is above their conversation_reads marker.
ALTER TABLE `conversations` ADD `last_inbound_id` integer;
--> statement-breakpoint
UPDATE `conversations` SET `owner_user_id` = (SELECT c.`owner_user_id` FROM `contacts` c WHERE c.`id` = `conversations`.`contact_id`)
WHERE `contact_id` IS NOT NULL;
--> statement-breakpoint
-- Existing conversations: only one whose latest message is inbound (nobody answered) starts unread; finding the
-- latest inbound message of the others would read every thread, and an answered conversation has been read.
UPDATE `conversations` SET `last_inbound_id` = `last_message_id` WHERE `needs_reply` = 1;
--> statement-breakpoint
-- Mine / Unassigned (owner IS NULL), Open or Closed, newest activity first; the sidebar's unread count walks the
-- first rows of the same seek.
CREATE INDEX `conversations_queue_idx` ON `conversations` (`owner_user_id`, `status`, `last_message_at`, `last_message_id`);
--> statement-breakpoint
-- All, Open or Closed, newest activity first. It replaces conversations_recent_idx, whose only reader was the list.
CREATE INDEX `conversations_status_recent_idx` ON `conversations` (`status`, `last_message_at`, `last_message_id`);
--> statement-breakpoint
DROP INDEX `conversations_recent_idx`;
--> statement-breakpoint
-- Snoozed, soonest to wake first: partial, so it holds only the (few) snoozed rows.
CREATE INDEX `conversations_snoozed_idx` ON `conversations` (`owner_user_id`, `snoozed_until`, `id`) WHERE `snoozed_until` IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `conversations_snoozed_all_idx` ON `conversations` (`snoozed_until`, `id`) WHERE `snoozed_until` IS NOT NULL;
--> statement-breakpoint
-- A new conversation takes its contact's owner and, when it starts with a reply, that reply as its latest inbound.
CREATE TRIGGER `conversations_queue_ai` AFTER INSERT ON `conversations`
WHEN NEW.`contact_id` IS NOT NULL OR NEW.`last_direction` = 'inbound' BEGIN
  UPDATE `conversations` SET
    `owner_user_id` = (SELECT c.`owner_user_id` FROM `contacts` c WHERE c.`id` = NEW.`contact_id`),
    `last_inbound_id` = CASE WHEN NEW.`last_direction` = 'inbound' THEN NEW.`last_message_id` END
  WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
-- The owner follows the contact's (by hand, in bulk, round-robin, hand-off, import): one seek of conversations_contact_idx.
CREATE TRIGGER `contacts_owner_conversations_au` AFTER UPDATE OF `owner_user_id` ON `contacts`
WHEN OLD.`owner_user_id` IS NOT NEW.`owner_user_id` BEGIN
  UPDATE `conversations` SET `owner_user_id` = NEW.`owner_user_id` WHERE `contact_id` = NEW.`id`;
END;
--> statement-breakpoint
-- A reply reopens a closed or snoozed conversation and is unread for everyone whose queue holds it. Whether this runs
-- before or after messages_conversation_ai, the result is the same (a new row is set by conversations_queue_ai).
CREATE TRIGGER `messages_conversation_inbound_ai` AFTER INSERT ON `messages`
WHEN NEW.`direction` = 'inbound' AND NEW.`kind` <> 'alert' AND coalesce(NEW.`contact_id`, NEW.`phone`, NEW.`email`) IS NOT NULL BEGIN
  UPDATE `conversations` SET `status` = 'open', `snoozed_until` = NULL, `last_inbound_id` = NEW.`id`
  WHERE `key` = coalesce('c:' || NEW.`contact_id`, 'p:' || NEW.`phone`, 'e:' || NEW.`email`)
    AND (`last_inbound_id` IS NULL OR `last_inbound_id` < NEW.`id`);
END;
--> statement-breakpoint
-- Per user, the latest message of a conversation they have opened. No foreign key on conversation_id: a deleted
-- conversation's marker is never read again (ids are not reused) and a cascade would need a second index.
CREATE TABLE `conversation_reads` (
  `user_id` integer NOT NULL REFERENCES `users`(`id`) ON DELETE CASCADE,
  `conversation_id` integer NOT NULL,
  `read_message_id` integer NOT NULL,
  PRIMARY KEY (`user_id`, `conversation_id`)
) WITHOUT ROWID;
