-- Conversations (issue 11): one row per contact (or per phone / email without a contact) with its latest
-- message, kept by a trigger on messages so the list never groups 1,000,000 messages per view.
CREATE TABLE `conversations` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  -- 'c:<contact id>', else 'p:<phone>', else 'e:<email>'
  `key` text NOT NULL,
  `contact_id` integer REFERENCES `contacts`(`id`) ON DELETE CASCADE,
  `phone` text,
  `email` text,
  `last_message_id` integer NOT NULL,
  `last_message_at` integer NOT NULL,
  `last_direction` text NOT NULL,
  `last_preview` text NOT NULL,
  -- 1 while the latest message is inbound: someone wrote and nobody has answered yet
  `needs_reply` integer NOT NULL DEFAULT 0
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_key_uq` ON `conversations` (`key`);
--> statement-breakpoint
CREATE INDEX `conversations_recent_idx` ON `conversations` (`last_message_at`, `id`);
--> statement-breakpoint
CREATE INDEX `conversations_contact_idx` ON `conversations` (`contact_id`);
--> statement-breakpoint
-- One conversation's thread, keyset-paged by id (newest page first).
CREATE INDEX `messages_contact_thread_idx` ON `messages` (`contact_id`, `id`);
--> statement-breakpoint
CREATE INDEX `messages_phone_thread_idx` ON `messages` (`phone`, `id`);
--> statement-breakpoint
INSERT INTO `conversations` (`key`, `contact_id`, `phone`, `email`, `last_message_id`, `last_message_at`, `last_direction`, `last_preview`, `needs_reply`)
SELECT coalesce('c:' || m.contact_id, 'p:' || m.phone, 'e:' || m.email), m.contact_id, m.phone, m.email, m.id, m.created_at, m.direction,
  substr(m.content, 1, 160), m.direction = 'inbound'
FROM messages m
JOIN (SELECT max(id) AS id FROM messages WHERE coalesce(contact_id, phone, email) IS NOT NULL GROUP BY coalesce('c:' || contact_id, 'p:' || phone, 'e:' || email)) last ON last.id = m.id;
--> statement-breakpoint
CREATE TRIGGER `messages_conversation_ai` AFTER INSERT ON `messages`
WHEN coalesce(NEW.contact_id, NEW.phone, NEW.email) IS NOT NULL
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
-- The consumer writes the rendered text when it claims a message: the preview follows.
CREATE TRIGGER `messages_conversation_au` AFTER UPDATE OF `content` ON `messages` BEGIN
  UPDATE `conversations` SET `last_preview` = substr(NEW.content, 1, 160)
  WHERE `key` = coalesce('c:' || NEW.contact_id, 'p:' || NEW.phone, 'e:' || NEW.email) AND `last_message_id` = NEW.id;
END;
