-- Send progress (/testing/sends/:id) counts one broadcast's messages by status: a covering index on
-- (broadcast_id, status) answers it from the index alone. It replaces the broadcast_id-only index (its prefix).
CREATE INDEX IF NOT EXISTS `messages_broadcast_status_idx` ON `messages` (`broadcast_id`, `status`);
--> statement-breakpoint
DROP INDEX IF EXISTS `messages_broadcast_id_idx`;
