-- AI assistant: one row per reply classification (analysis time and confidence are measured, so screens can show
-- real figures), and a per-user, per-minute call counter for cost control.
CREATE TABLE `ai_classifications` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  `message_id` integer REFERENCES `messages`(`id`) ON DELETE SET NULL,
  `text_preview` text NOT NULL,
  `intent` text NOT NULL,
  `sentiment` text NOT NULL,
  `confidence` integer NOT NULL,
  `provider` text NOT NULL,
  `analysis_ms` integer NOT NULL,
  `created_at` integer NOT NULL,
  `marked_correct` integer
);
--> statement-breakpoint
CREATE INDEX `ai_classifications_created_at_idx` ON `ai_classifications` (`created_at`);
--> statement-breakpoint
CREATE INDEX `ai_classifications_message_idx` ON `ai_classifications` (`message_id`);
--> statement-breakpoint
CREATE TABLE `ai_usage` (
  `user_id` integer NOT NULL REFERENCES `users`(`id`) ON DELETE CASCADE,
  `window_start` integer NOT NULL,
  `calls` integer NOT NULL DEFAULT 0,
  PRIMARY KEY (`user_id`, `window_start`)
);
