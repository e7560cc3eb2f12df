-- Issue 24, item 7: staff alert emails (messages.kind = 'alert') are our own mail to the team, not messages to
-- customers. They no longer count in message_daily_counts (the chart, and through the message_counts view the
-- Message Center tabs and every "Messages Sent"), start or update a conversation, or enter the message search index.
-- Smart Alerts keeps its own history (the alerts table); the rows stay in messages for the send pipeline.
-- Issue 24, item 12: the conversation list's ties (one broadcast writes many messages in the same millisecond) are
-- broken by the newest message, not by the age of the conversation row.

DROP TRIGGER `messages_daily_ai`;
--> statement-breakpoint
CREATE TRIGGER `messages_daily_ai` AFTER INSERT ON `messages`
WHEN new.kind <> 'alert' BEGIN
	INSERT INTO `message_daily_counts` (day, direction, status, n)
	VALUES (strftime('%Y-%m-%d', new.created_at / 1000, 'unixepoch'), new.direction,
		CASE WHEN new.status IN ('queued', 'sending') THEN 'pending' ELSE new.status END, 1)
	ON CONFLICT(day, direction, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
DROP TRIGGER `messages_daily_ad`;
--> statement-breakpoint
CREATE TRIGGER `messages_daily_ad` AFTER DELETE ON `messages`
WHEN old.kind <> 'alert' AND NOT EXISTS (SELECT 1 FROM `message_archive_state` WHERE id = 1 AND archiving = 1) BEGIN
	UPDATE `message_daily_counts` SET n = n - 1
	WHERE day = strftime('%Y-%m-%d', old.created_at / 1000, 'unixepoch') AND direction = old.direction
		AND status = CASE WHEN old.status IN ('queued', 'sending') THEN 'pending' ELSE old.status END;
END;
--> statement-breakpoint
DROP TRIGGER `messages_daily_au`;
--> statement-breakpoint
CREATE TRIGGER `messages_daily_au` AFTER UPDATE OF status, direction, created_at ON `messages`
WHEN new.kind <> 'alert' AND ((CASE WHEN old.status IN ('queued', 'sending') THEN 'pending' ELSE old.status END) IS NOT (CASE WHEN new.status IN ('queued', 'sending') THEN 'pending' ELSE new.status END)
	OR old.direction IS NOT new.direction OR old.created_at IS NOT new.created_at) BEGIN
	UPDATE `message_daily_counts` SET n = n - 1
	WHERE day = strftime('%Y-%m-%d', old.created_at / 1000, 'unixepoch') AND direction = old.direction
		AND status = CASE WHEN old.status IN ('queued', 'sending') THEN 'pending' ELSE old.status END;
	INSERT INTO `message_daily_counts` (day, direction, status, n)
	VALUES (strftime('%Y-%m-%d', new.created_at / 1000, 'unixepoch'), new.direction,
		CASE WHEN new.status IN ('queued', 'sending') THEN 'pending' ELSE new.status END, 1)
	ON CONFLICT(day, direction, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
-- The alert emails counted so far (those not yet archived; an archived one's count cannot be told apart any more).
UPDATE `message_daily_counts` SET n = message_daily_counts.n - a.n
FROM (SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, direction,
		CASE WHEN status IN ('queued', 'sending') THEN 'pending' ELSE status END AS status, count(*) AS n
	FROM `messages` WHERE kind = 'alert' GROUP BY 1, 2, 3) AS a
WHERE message_daily_counts.day = a.day AND message_daily_counts.direction = a.direction AND message_daily_counts.status = a.status;
--> statement-breakpoint
DROP TRIGGER `messages_conversation_ai`;
--> statement-breakpoint
CREATE TRIGGER `messages_conversation_ai` AFTER INSERT ON `messages`
WHEN coalesce(NEW.contact_id, NEW.phone, NEW.email) IS NOT NULL AND NEW.kind <> 'alert'
BEGIN
  INSERT INTO `conversations` (`key`, `contact_id`, `phone`, `email`, `last_message_id`, `last_message_at`, `last_direction`, `last_preview`, `needs_reply`)
  VALUES (coalesce('c:' || NEW.contact_id, 'p:' || NEW.phone, 'e:' || NEW.email), NEW.contact_id, NEW.phone, NEW.email, NEW.id, NEW.created_at,
    NEW.direction, substr(NEW.content, 1, 160), NEW.direction = 'inbound')
  ON CONFLICT(`key`) DO UPDATE SET
    `last_message_id` = excluded.`last_message_id`, `last_message_at` = excluded.`last_message_at`, `last_direction` = excluded.`last_direction`,
    `last_preview` = excluded.`last_preview`, `needs_reply` = excluded.`needs_reply`, `phone` = coalesce(excluded.`phone`, `phone`), `email` = coalesce(excluded.`email`, `email`)
  WHERE excluded.`last_message_id` > `conversations`.`last_message_id`;
END;
--> statement-breakpoint
-- Conversations an alert email made: back to the address's latest other message, or gone when there is none.
UPDATE `conversations` SET (`last_message_id`, `last_message_at`, `last_direction`, `last_preview`, `needs_reply`) = (
	SELECT m.id, m.created_at, m.direction, substr(m.content, 1, 160), m.direction = 'inbound' FROM `messages` m
	WHERE m.email = conversations.email AND m.contact_id IS NULL AND m.phone IS NULL AND m.kind <> 'alert' ORDER BY m.id DESC LIMIT 1)
WHERE `contact_id` IS NULL AND `phone` IS NULL AND `last_message_id` IN (SELECT id FROM `messages` WHERE kind = 'alert')
	AND EXISTS (SELECT 1 FROM `messages` m WHERE m.email = conversations.email AND m.contact_id IS NULL AND m.phone IS NULL AND m.kind <> 'alert');
--> statement-breakpoint
DELETE FROM `conversations` WHERE `last_message_id` IN (SELECT id FROM `messages` WHERE kind = 'alert');
--> statement-breakpoint
-- Search: an alert email is not indexed (nothing to find in the Message Center, and one index write less per alert).
INSERT INTO `messages_fts`(`messages_fts`, rowid, content, phone)
SELECT 'delete', id, content, phone FROM `messages` WHERE kind = 'alert';
--> statement-breakpoint
DROP TRIGGER `messages_fts_ai`;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_ai` AFTER INSERT ON `messages`
WHEN new.kind <> 'alert' AND (new.kind NOT IN ('campaign', 'broadcast') OR instr(new.content, '{{') = 0) BEGIN
	INSERT INTO `messages_fts`(rowid, content, phone) VALUES (new.id, new.content, new.phone);
END;
--> statement-breakpoint
DROP TRIGGER `messages_fts_ad`;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_ad` AFTER DELETE ON `messages`
WHEN old.kind <> 'alert' AND (old.kind NOT IN ('campaign', 'broadcast') OR instr(old.content, '{{') = 0) BEGIN
	INSERT INTO `messages_fts`(`messages_fts`, rowid, content, phone) VALUES ('delete', old.id, old.content, old.phone);
END;
--> statement-breakpoint
DROP TRIGGER `messages_fts_au`;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_au` AFTER UPDATE OF content, phone ON `messages`
WHEN new.kind <> 'alert' AND (old.content IS NOT new.content OR old.phone IS NOT new.phone) BEGIN
	INSERT INTO `messages_fts`(`messages_fts`, rowid, content, phone)
	SELECT 'delete', old.id, old.content, old.phone WHERE old.kind NOT IN ('campaign', 'broadcast') OR instr(old.content, '{{') = 0;
	INSERT INTO `messages_fts`(rowid, content, phone)
	SELECT new.id, new.content, new.phone WHERE new.kind NOT IN ('campaign', 'broadcast') OR instr(new.content, '{{') = 0;
END;
--> statement-breakpoint
DROP INDEX `conversations_recent_idx`;
--> statement-breakpoint
CREATE INDEX `conversations_recent_idx` ON `conversations` (`last_message_at`, `last_message_id`);
--> statement-breakpoint
-- Issue 24, item 12: a re-import previewed "Import 46" and created 0. The Match columns step now counts, once, the
-- staged rows that are already contacts (by phone: updated or skipped per the choice; by email only: always skipped),
-- so the preview says what will happen. NULL: not counted (imports staged before this, Quick Upload & Send).
ALTER TABLE `contact_imports` ADD `existing_phone_rows` integer;
--> statement-breakpoint
ALTER TABLE `contact_imports` ADD `existing_email_rows` integer;
