-- Issue 23: one fixed-window counter for every automatic channel (auto-replies, escalation and alert emails, AI
-- classifications, the daily AI budget, test sends, test alerts) and the "held" tallies the screens show.
-- A cap check is one UPSERT on the primary key (channel, subject, window_start) that RETURNING the new count, so an
-- event path reads the one row it touches. `expires_at` (the window's end, later for the tallies screens show) lets
-- the cron tick purge old windows oldest first in bounded chunks.
CREATE TABLE `cap_counters` (
  `channel` text NOT NULL,
  `subject` text NOT NULL,
  `window_start` integer NOT NULL,
  `hits` integer NOT NULL DEFAULT 0,
  `expires_at` integer NOT NULL,
  PRIMARY KEY (`channel`, `subject`, `window_start`)
);
--> statement-breakpoint
CREATE INDEX `cap_counters_expires_at_idx` ON `cap_counters` (`expires_at`);
