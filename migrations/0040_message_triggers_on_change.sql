-- The send consumer's claim writes `content` on every row of a batch: the rendered text for a row it sends, the same
-- text back for one it only decides on (skipped, deferred, held). An `UPDATE OF` trigger fires whenever its column is
-- in the SET list, changed or not, so each of those rows rewrote its search-index entry (a trigram delete + insert,
-- 7 rows written instead of 1) and looked up its conversation. They now run only when the text or number changed.
DROP TRIGGER `messages_fts_au`;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_au` AFTER UPDATE OF content, phone ON `messages`
WHEN old.content IS NOT new.content OR old.phone IS NOT new.phone BEGIN
	INSERT INTO `messages_fts`(`messages_fts`, rowid, content, phone) VALUES ('delete', old.id, old.content, old.phone);
	INSERT INTO `messages_fts`(rowid, content, phone) VALUES (new.id, new.content, new.phone);
END;
--> statement-breakpoint
DROP TRIGGER `messages_conversation_au`;
--> statement-breakpoint
CREATE TRIGGER `messages_conversation_au` AFTER UPDATE OF `content` ON `messages`
WHEN old.content IS NOT new.content BEGIN
  UPDATE `conversations` SET `last_preview` = substr(NEW.content, 1, 160)
  WHERE `key` = coalesce('c:' || NEW.contact_id, 'p:' || NEW.phone, 'e:' || NEW.email) AND `last_message_id` = NEW.id;
END;
