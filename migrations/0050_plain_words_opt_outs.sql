-- Issue 24: opt-outs understood from plain words ("Stop texting me") are listed newest first on /compliance for a
-- superuser's review; this index serves that list (reason, then time) and nothing else reads suppressions by reason.
CREATE INDEX `suppressions_reason_created_at_idx` ON `suppressions` (`reason`, `created_at`);
