ALTER TABLE `broadcasts` ADD `idempotency_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `broadcasts_idempotency_key_uq` ON `broadcasts` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `messages_email_created_at_idx` ON `messages` (`email`,`created_at`);