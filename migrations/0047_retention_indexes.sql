-- Issue 23 (decision 022): append-only tables without a retention grew for ever; login_history even from anonymous
-- failed logins. The cron purges each past its retention in bounded chunks, oldest first; these indexes let it read
-- only the rows that are due (the existing ones lead with user, email, IP or device).
CREATE INDEX `login_history_created_at_idx` ON `login_history` (`created_at`);
--> statement-breakpoint
CREATE INDEX `alerts_created_at_idx` ON `alerts` (`created_at`);
--> statement-breakpoint
CREATE INDEX `chat_messages_created_at_idx` ON `chat_messages` (`created_at`);
