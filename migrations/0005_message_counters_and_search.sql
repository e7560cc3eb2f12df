-- Tab counts and stats without COUNT(*) over a million rows: triggers keep message_counts exact.
CREATE TRIGGER `messages_counts_ai` AFTER INSERT ON `messages` BEGIN
	INSERT INTO `message_counts` (direction, status, n) VALUES (new.direction, new.status, 1)
	ON CONFLICT(direction, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `messages_counts_ad` AFTER DELETE ON `messages` BEGIN
	UPDATE `message_counts` SET n = n - 1 WHERE direction = old.direction AND status = old.status;
END;
--> statement-breakpoint
CREATE TRIGGER `messages_counts_au` AFTER UPDATE OF status, direction ON `messages`
WHEN old.status IS NOT new.status OR old.direction IS NOT new.direction BEGIN
	UPDATE `message_counts` SET n = n - 1 WHERE direction = old.direction AND status = old.status;
	INSERT INTO `message_counts` (direction, status, n) VALUES (new.direction, new.status, 1)
	ON CONFLICT(direction, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
-- Message Center search (SPEC §2: content, case-insensitive, and the phone) as FTS5 trigram substring search.
CREATE VIRTUAL TABLE `messages_fts` USING fts5(
	`content`, `phone`, content='messages', content_rowid='id', tokenize='trigram'
);
--> statement-breakpoint
CREATE TRIGGER `messages_fts_ai` AFTER INSERT ON `messages` BEGIN
	INSERT INTO `messages_fts`(rowid, content, phone) VALUES (new.id, new.content, new.phone);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_ad` AFTER DELETE ON `messages` BEGIN
	INSERT INTO `messages_fts`(`messages_fts`, rowid, content, phone) VALUES ('delete', old.id, old.content, old.phone);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_au` AFTER UPDATE OF content, phone ON `messages` BEGIN
	INSERT INTO `messages_fts`(`messages_fts`, rowid, content, phone) VALUES ('delete', old.id, old.content, old.phone);
	INSERT INTO `messages_fts`(rowid, content, phone) VALUES (new.id, new.content, new.phone);
END;
