-- Issue 22: at 5M messages a homeowner has ~50 messages of history, and four statements on the event paths walked
-- all of them (bench:events: an inbound reply read 78 rows at 10k messages and 198 at 5M). Two small partial indexes
-- let each read only what it touches.

-- The number's messages not yet handed to the provider (pending, queued, held): STOP skips them, a reply stops the
-- sequence's, a person's send cancels the auto follow-ups. A message leaves the index when it is claimed, so this costs
-- one index row per message, written once. Queries repeat the WHERE literally (`status IN ('pending', 'queued', 'held')`).
CREATE INDEX `messages_unsent_phone_idx` ON `messages` (`phone`) WHERE status IN ('pending', 'queued', 'held');
--> statement-breakpoint
-- The number's inbound messages and the replies a person sent it: "has this number written before" and "when did a
-- person last answer" (the auto-responders' previous-interaction rule and escalation). Campaign and broadcast sends,
-- most of the volume, are not in it.
CREATE INDEX `messages_phone_conversation_idx` ON `messages` (`phone`, `id`) WHERE direction = 'inbound' OR kind IN ('individual', 'quick', 'reply');
