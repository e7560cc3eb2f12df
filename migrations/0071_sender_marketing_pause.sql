-- Deliverability autopilot (decision 065): carriers filtering a sending number's texts (Twilio 30007, 30032,
-- 30034) pause that number's marketing until a superuser resumes it. The pause sits on the number's pacing row,
-- which the send consumer already reads in its batch, so holding costs no extra read.
ALTER TABLE `sender_pacing` ADD `marketing_paused_at` integer;
ALTER TABLE `sender_pacing` ADD `marketing_paused_reason` text;
-- A number's filtered texts since a moment, counted when a final failure lands: only filtered rows enter this index
-- (a delivered or sent text pays nothing but the predicate), so the count reads those rows and nothing else.
CREATE INDEX `messages_filtered_sender_idx` ON `messages` (`from_address`, `updated_at`)
WHERE error_code IN ('30007', '30032', '30034');
