-- Analytics (issue 14): messages per UTC day of creation, by direction and status, kept by triggers on every path
-- (create, consumer, status callbacks, reconciler, deletes) so the chart reads ≤ 90 days × a few rows, never the
-- message table. Backfilled once here.
CREATE TABLE `message_daily_counts` (
	`day` text NOT NULL,
	`direction` text NOT NULL,
	`status` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY (`day`, `direction`, `status`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `message_daily_counts` (day, direction, status, n)
SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch'), direction, status, count(*) FROM `messages` GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE TRIGGER `messages_daily_ai` AFTER INSERT ON `messages` BEGIN
	INSERT INTO `message_daily_counts` (day, direction, status, n)
	VALUES (strftime('%Y-%m-%d', new.created_at / 1000, 'unixepoch'), new.direction, new.status, 1)
	ON CONFLICT(day, direction, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `messages_daily_ad` AFTER DELETE ON `messages` BEGIN
	UPDATE `message_daily_counts` SET n = n - 1
	WHERE day = strftime('%Y-%m-%d', old.created_at / 1000, 'unixepoch') AND direction = old.direction AND status = old.status;
END;
--> statement-breakpoint
CREATE TRIGGER `messages_daily_au` AFTER UPDATE OF status, direction, created_at ON `messages`
WHEN old.status IS NOT new.status OR old.direction IS NOT new.direction OR old.created_at IS NOT new.created_at BEGIN
	UPDATE `message_daily_counts` SET n = n - 1
	WHERE day = strftime('%Y-%m-%d', old.created_at / 1000, 'unixepoch') AND direction = old.direction AND status = old.status;
	INSERT INTO `message_daily_counts` (day, direction, status, n)
	VALUES (strftime('%Y-%m-%d', new.created_at / 1000, 'unixepoch'), new.direction, new.status, 1)
	ON CONFLICT(day, direction, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
-- The campaign funnel's last stage: enrolments stopped because the contact opted out.
ALTER TABLE `campaigns` ADD `opted_out_count` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `campaigns` SET `opted_out_count` = (
	SELECT count(*) FROM `campaign_enrollments` e WHERE e.campaign_id = campaigns.id AND e.status = 'stopped' AND e.stop_reason = 'opted_out'
);
--> statement-breakpoint
CREATE TRIGGER `campaign_enrollments_opted_out_au` AFTER UPDATE OF status, stop_reason ON `campaign_enrollments`
WHEN (old.status = 'stopped' AND old.stop_reason = 'opted_out') IS NOT (new.status = 'stopped' AND new.stop_reason = 'opted_out') BEGIN
	UPDATE `campaigns` SET opted_out_count = opted_out_count + (CASE WHEN new.status = 'stopped' AND new.stop_reason = 'opted_out' THEN 1 ELSE -1 END)
	WHERE id = new.campaign_id;
END;
--> statement-breakpoint
CREATE TRIGGER `campaign_enrollments_opted_out_ad` AFTER DELETE ON `campaign_enrollments`
WHEN old.status = 'stopped' AND old.stop_reason = 'opted_out' BEGIN
	UPDATE `campaigns` SET opted_out_count = opted_out_count - 1 WHERE id = old.campaign_id;
END;
