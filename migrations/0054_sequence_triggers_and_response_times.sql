-- Issue 26 item 3, speed to lead (decision 037). Hand-written.
-- Trigger rules: "a new lead from source X (or any source) → start sequence Y". trigger_on is the event
-- ('lead.created' today; 'tag.added' and 'stage.changed' are reserved for issue 28), match_key what the event must
-- carry, lower-cased and trimmed ('' = any), match_value the text as the superuser typed it (null = any).
CREATE TABLE `sequence_triggers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`trigger_on` text DEFAULT 'lead.created' NOT NULL,
	`match_key` text DEFAULT '' NOT NULL,
	`match_value` text,
	`campaign_id` integer NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
-- A lead's rules: trigger_on = ? AND match_key IN (?, '') AND enabled = 1, two index seeks.
CREATE INDEX `sequence_triggers_match_idx` ON `sequence_triggers` (`trigger_on`,`match_key`) WHERE enabled = 1;
--> statement-breakpoint
-- The campaign's rules: the completion trigger below, and the cascade when a campaign is deleted.
CREATE INDEX `sequence_triggers_campaign_idx` ON `sequence_triggers` (`campaign_id`);
--> statement-breakpoint
-- A campaign that an enabled rule feeds is a standing sequence: it stays running when nobody is waiting, so the
-- next lead still finds it active. Same trigger as migration 0015 otherwise.
DROP TRIGGER IF EXISTS `campaigns_complete_au`;
--> statement-breakpoint
CREATE TRIGGER `campaigns_complete_au` AFTER UPDATE OF waiting_count, enrolling ON `campaigns`
WHEN new.status = 'running' AND new.waiting_count = 0 AND new.enrolling = 0
	AND NOT EXISTS (SELECT 1 FROM `sequence_triggers` t WHERE t.campaign_id = new.id AND t.enabled = 1) BEGIN
	UPDATE `campaigns` SET status = 'completed', completed_at = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER),
		updated_at = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
	WHERE id = new.id;
END;
--> statement-breakpoint
-- Speed to lead, per contact: one row for a lead (written by runLeadTriggers) or a contact who replied, holding the
-- first moments the figures need, so the Dashboard and User Analytics never read the messages table. The *_by
-- columns are the sender of that text: a campaign step's owner (decision 027) or the person who answered.
CREATE TABLE `contact_response_times` (
	`contact_id` integer PRIMARY KEY NOT NULL,
	`lead_at` integer,
	`lead_source` text,
	`first_text_at` integer,
	`first_text_by` integer,
	`first_reply_at` integer,
	`first_answer_at` integer,
	`first_answer_by` integer,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`first_text_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`first_answer_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
-- Lead → first text over a period (Dashboard), and per rep (User Analytics).
CREATE INDEX `contact_response_times_lead_idx` ON `contact_response_times` (`lead_at`) WHERE first_text_at IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `contact_response_times_lead_rep_idx` ON `contact_response_times` (`first_text_by`,`lead_at`) WHERE first_text_at IS NOT NULL;
--> statement-breakpoint
-- First reply → the rep's answer over a period, and per rep.
CREATE INDEX `contact_response_times_reply_idx` ON `contact_response_times` (`first_reply_at`) WHERE first_answer_at IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `contact_response_times_reply_rep_idx` ON `contact_response_times` (`first_answer_by`,`first_reply_at`) WHERE first_answer_at IS NOT NULL;
--> statement-breakpoint
-- A contact's first reply: an inbound text from a known contact. Two primary-key statements; later replies change
-- nothing (the UPDATE finds first_reply_at set).
CREATE TRIGGER `messages_response_times_ai` AFTER INSERT ON `messages`
WHEN new.direction = 'inbound' AND new.channel = 'sms' AND new.contact_id IS NOT NULL BEGIN
	INSERT INTO `contact_response_times` (contact_id) VALUES (new.contact_id) ON CONFLICT(contact_id) DO NOTHING;
	UPDATE `contact_response_times` SET first_reply_at = new.created_at
	WHERE contact_id = new.contact_id AND first_reply_at IS NULL;
END;
--> statement-breakpoint
-- A text handed to the provider: the lead's first text (any customer text: a step, a person, an auto-reply), and the
-- rep's answer to the first reply (a person's send only). Tests, compliance answers and staff alerts are no touch.
CREATE TRIGGER `messages_response_times_au` AFTER UPDATE OF status ON `messages`
WHEN old.status IN ('pending', 'queued', 'sending', 'held') AND new.status IN ('sent', 'delivered')
	AND new.direction = 'outbound' AND new.channel = 'sms' AND new.contact_id IS NOT NULL AND new.is_test = 0
	AND new.kind NOT IN ('test', 'compliance', 'alert') BEGIN
	UPDATE `contact_response_times` SET first_text_at = coalesce(new.sent_at, new.updated_at), first_text_by = new.created_by
	WHERE contact_id = new.contact_id AND lead_at IS NOT NULL AND first_text_at IS NULL;
	UPDATE `contact_response_times` SET first_answer_at = coalesce(new.sent_at, new.updated_at), first_answer_by = new.created_by
	WHERE contact_id = new.contact_id AND new.kind IN ('quick', 'individual', 'reply')
		AND first_reply_at IS NOT NULL AND first_answer_at IS NULL;
END;
