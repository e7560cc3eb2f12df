-- Issue 26: the lead webhook's Idempotency-Key rows are purged after their retention (decision 038, Update).
-- Hand-written. The cron's purge reads the oldest row and the due rows, oldest first, through this index.
CREATE INDEX `lead_idempotency_created_at_idx` ON `lead_idempotency` (`created_at`);
