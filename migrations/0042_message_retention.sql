-- Message retention (issue 22, decision 017): messages older than the retention (org setting, months, default 18) are
-- archived to R2 (binding ARCHIVE) as gzipped NDJSON parts, one folder per month, and deleted from D1 by a cron task
-- in bounded chunks (app/messaging/archive-old-messages.server.ts). Counters, daily analytics and compliance evidence
-- stay as they were.
INSERT INTO `org_settings` (`key`, `value`, `updated_at`) VALUES ('messageRetentionMonths', '18', CAST(unixepoch('subsec') * 1000 AS INTEGER))
ON CONFLICT(`key`) DO NOTHING;
--> statement-breakpoint
-- One row per archive object (a part of a month), written in the same D1 batch as the delete of its messages.
CREATE TABLE `message_archives` (
	`key` text PRIMARY KEY NOT NULL,
	`month` text NOT NULL,
	`first_id` integer NOT NULL,
	`last_id` integer NOT NULL,
	`rows` integer NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `message_archives_month_idx` ON `message_archives` (`month`, `key`);
--> statement-breakpoint
-- The archive screen's list: one row per month, summed in the same batch (never a GROUP BY over every part).
CREATE TABLE `message_archive_months` (
	`month` text PRIMARY KEY NOT NULL,
	`parts` integer DEFAULT 0 NOT NULL,
	`rows` integer DEFAULT 0 NOT NULL,
	`bytes` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
-- The task's one row of state:
-- archiving    1 only inside the archive batch, between its own two UPDATEs: the counter triggers below skip then;
-- cursor_*     (created_at, id) of the last message the scan read, so a tick reads only what it has not seen (rows
--              it left because they were not finished yet are read again when lap_day changes: once a day);
-- lease_until  a tick that is writing holds the task until then (overlapping ticks do not archive the same chunk);
-- pending_keys the R2 keys a tick put before its D1 batch (JSON array); a tick that finds them after a crash deletes
--              any it does not overwrite, so no object outside message_archives holds a row.
CREATE TABLE `message_archive_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`archiving` integer DEFAULT 0 NOT NULL,
	`cursor_at` integer DEFAULT 0 NOT NULL,
	`cursor_id` integer DEFAULT 0 NOT NULL,
	`lap_day` text DEFAULT '' NOT NULL,
	`lease_until` integer DEFAULT 0 NOT NULL,
	`pending_keys` text
);
--> statement-breakpoint
INSERT INTO `message_archive_state` (`id`) VALUES (1);
--> statement-breakpoint
-- Archiving is not un-sending: message_daily_counts (the analytics chart, and through the message_counts view the tab
-- counts and dashboard, migration 0041) keeps counting archived messages. An ordinary DELETE still decrements it.
DROP TRIGGER `messages_daily_ad`;
--> statement-breakpoint
CREATE TRIGGER `messages_daily_ad` AFTER DELETE ON `messages`
WHEN NOT EXISTS (SELECT 1 FROM `message_archive_state` WHERE id = 1 AND archiving = 1) BEGIN
	UPDATE `message_daily_counts` SET n = n - 1
	WHERE day = strftime('%Y-%m-%d', old.created_at / 1000, 'unixepoch') AND direction = old.direction
		AND status = CASE WHEN old.status IN ('queued', 'sending') THEN 'pending' ELSE old.status END;
END;
--> statement-breakpoint
-- The consent evidence export shows the text that caused an opt-out or opt-in (the contact's latest inbound message at
-- that moment, read from messages). Before that message is archived, the archive batch copies it here.
ALTER TABLE `compliance_events` ADD `inbound_content` text;
--> statement-breakpoint
ALTER TABLE `compliance_events` ADD `inbound_at` integer;
--> statement-breakpoint
ALTER TABLE `compliance_events` ADD `inbound_to` text;
