-- Issue 22: every write to `messages` pays for every index and trigger on it (D1 bills each index entry written).
-- An SMS wrote ~61 rows from created to delivered; this keeps the indexes the queries need (docs/decisions/016) and
-- makes the status-dependent ones partial, so a message leaving `pending`/`queued`/`sending` costs nothing there.

-- Counters: one table, by UTC day. The transient statuses (pending, queued, sending) share the `pending` bucket, so
-- the pipeline's own steps write no counter rows; the backlog split comes from messages_due_idx (bounded reads).
-- The global counts (tabs, stats) are the sum over days: a view, so readers are unchanged.
DROP TRIGGER `messages_counts_ai`;
--> statement-breakpoint
DROP TRIGGER `messages_counts_ad`;
--> statement-breakpoint
DROP TRIGGER `messages_counts_au`;
--> statement-breakpoint
DROP TABLE `message_counts`;
--> statement-breakpoint
DROP TRIGGER `messages_daily_ai`;
--> statement-breakpoint
DROP TRIGGER `messages_daily_ad`;
--> statement-breakpoint
DROP TRIGGER `messages_daily_au`;
--> statement-breakpoint
INSERT INTO `message_daily_counts` (day, direction, status, n)
SELECT day, direction, 'pending', sum(n) FROM `message_daily_counts` WHERE status IN ('queued', 'sending') GROUP BY day, direction
ON CONFLICT(day, direction, status) DO UPDATE SET n = n + excluded.n;
--> statement-breakpoint
DELETE FROM `message_daily_counts` WHERE status IN ('queued', 'sending');
--> statement-breakpoint
CREATE TRIGGER `messages_daily_ai` AFTER INSERT ON `messages` BEGIN
	INSERT INTO `message_daily_counts` (day, direction, status, n)
	VALUES (strftime('%Y-%m-%d', new.created_at / 1000, 'unixepoch'), new.direction,
		CASE WHEN new.status IN ('queued', 'sending') THEN 'pending' ELSE new.status END, 1)
	ON CONFLICT(day, direction, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `messages_daily_ad` AFTER DELETE ON `messages` BEGIN
	UPDATE `message_daily_counts` SET n = n - 1
	WHERE day = strftime('%Y-%m-%d', old.created_at / 1000, 'unixepoch') AND direction = old.direction
		AND status = CASE WHEN old.status IN ('queued', 'sending') THEN 'pending' ELSE old.status END;
END;
--> statement-breakpoint
CREATE TRIGGER `messages_daily_au` AFTER UPDATE OF status, direction, created_at ON `messages`
WHEN (CASE WHEN old.status IN ('queued', 'sending') THEN 'pending' ELSE old.status END) IS NOT (CASE WHEN new.status IN ('queued', 'sending') THEN 'pending' ELSE new.status END)
	OR old.direction IS NOT new.direction OR old.created_at IS NOT new.created_at BEGIN
	UPDATE `message_daily_counts` SET n = n - 1
	WHERE day = strftime('%Y-%m-%d', old.created_at / 1000, 'unixepoch') AND direction = old.direction
		AND status = CASE WHEN old.status IN ('queued', 'sending') THEN 'pending' ELSE old.status END;
	INSERT INTO `message_daily_counts` (day, direction, status, n)
	VALUES (strftime('%Y-%m-%d', new.created_at / 1000, 'unixepoch'), new.direction,
		CASE WHEN new.status IN ('queued', 'sending') THEN 'pending' ELSE new.status END, 1)
	ON CONFLICT(day, direction, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE VIEW `message_counts` AS SELECT direction, status, sum(n) AS n FROM `message_daily_counts` GROUP BY direction, status;
--> statement-breakpoint
-- Indexes: 14 → 12 (messages_created_at_idx stays: retention archives by age, oldest first), and the ones a status change would rewrite are partial (see decision 016 for each query).
DROP INDEX `messages_direction_created_at_idx`;
--> statement-breakpoint
DROP INDEX `messages_status_created_at_idx`;
--> statement-breakpoint
DROP INDEX `messages_phone_created_at_idx`;
--> statement-breakpoint
DROP INDEX `messages_contact_id_idx`;
--> statement-breakpoint
DROP INDEX `messages_kind_phone_idx`;
--> statement-breakpoint
DROP INDEX `messages_due_idx`;
--> statement-breakpoint
CREATE INDEX `messages_due_idx` ON `messages` (`status`, `scheduled_at`) WHERE status = 'pending' OR status = 'queued' OR status = 'sending';
--> statement-breakpoint
CREATE INDEX `messages_held_idx` ON `messages` (`campaign_id`) WHERE status = 'held';
--> statement-breakpoint
DROP INDEX `messages_twilio_sid_uq`;
--> statement-breakpoint
CREATE UNIQUE INDEX `messages_twilio_sid_uq` ON `messages` (`twilio_sid`) WHERE twilio_sid IS NOT NULL;
--> statement-breakpoint
DROP INDEX `messages_campaign_id_idx`;
--> statement-breakpoint
CREATE INDEX `messages_campaign_idx` ON `messages` (`campaign_id`) WHERE campaign_id IS NOT NULL;
--> statement-breakpoint
DROP INDEX `messages_broadcast_status_idx`;
--> statement-breakpoint
CREATE INDEX `messages_broadcast_status_idx` ON `messages` (`broadcast_id`, `status`) WHERE broadcast_id IS NOT NULL;
--> statement-breakpoint
DROP INDEX `messages_email_created_at_idx`;
--> statement-breakpoint
CREATE INDEX `messages_email_idx` ON `messages` (`email`) WHERE channel = 'email';
--> statement-breakpoint
CREATE INDEX `messages_inbound_idx` ON `messages` (`id`) WHERE direction = 'inbound';
--> statement-breakpoint
CREATE INDEX `messages_failed_idx` ON `messages` (`id`) WHERE status = 'failed' OR status = 'undelivered';
