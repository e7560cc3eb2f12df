-- Issue 22, after 0041: what a broadcast or campaign SMS still wrote that nobody reads.

-- Broadcast progress counts by status from this index; the in-flight steps (queued, sending) are the recipients minus
-- the rest (broadcasts.recipient_count), so a message passing through them writes nothing here.
DROP INDEX `messages_broadcast_status_idx`;
--> statement-breakpoint
CREATE INDEX `messages_broadcast_status_idx` ON `messages` (`broadcast_id`, `status`)
WHERE broadcast_id IS NOT NULL AND status NOT IN ('queued', 'sending');
--> statement-breakpoint
-- Search indexes what was sent: a campaign or broadcast row holds its template until the consumer writes the rendered
-- text, so it is indexed then, once, instead of indexing the template and re-indexing (a delete and an insert).
-- "Indexed" is one rule for insert, update and delete: not a bulk kind, or no {{variable}} left in the text.
INSERT INTO `messages_fts`(`messages_fts`, rowid, content, phone)
SELECT 'delete', id, content, phone FROM `messages` WHERE kind IN ('campaign', 'broadcast') AND instr(content, '{{') > 0;
--> statement-breakpoint
DROP TRIGGER `messages_fts_ai`;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_ai` AFTER INSERT ON `messages`
WHEN new.kind NOT IN ('campaign', 'broadcast') OR instr(new.content, '{{') = 0 BEGIN
	INSERT INTO `messages_fts`(rowid, content, phone) VALUES (new.id, new.content, new.phone);
END;
--> statement-breakpoint
DROP TRIGGER `messages_fts_ad`;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_ad` AFTER DELETE ON `messages`
WHEN old.kind NOT IN ('campaign', 'broadcast') OR instr(old.content, '{{') = 0 BEGIN
	INSERT INTO `messages_fts`(`messages_fts`, rowid, content, phone) VALUES ('delete', old.id, old.content, old.phone);
END;
--> statement-breakpoint
DROP TRIGGER `messages_fts_au`;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_au` AFTER UPDATE OF content, phone ON `messages`
WHEN old.content IS NOT new.content OR old.phone IS NOT new.phone BEGIN
	INSERT INTO `messages_fts`(`messages_fts`, rowid, content, phone)
	SELECT 'delete', old.id, old.content, old.phone WHERE old.kind NOT IN ('campaign', 'broadcast') OR instr(old.content, '{{') = 0;
	INSERT INTO `messages_fts`(rowid, content, phone)
	SELECT new.id, new.content, new.phone WHERE new.kind NOT IN ('campaign', 'broadcast') OR instr(new.content, '{{') = 0;
END;
