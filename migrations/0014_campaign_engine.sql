-- Campaign engine (issue 10; hand-written, see docs/decisions/006-campaign-engine.md).
-- Campaign: stop-on-reply switch, the audience query enrolled at start ("" = every contact), enrolment progress.
ALTER TABLE `campaigns` ADD `stop_on_reply` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `audience_query` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `audience_enrolled` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `enrolling` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `waiting_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `finished_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `stopped_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Steps: `position` is the stable order (step_number is renumbered after a delete, position never changes);
-- enrolments point at positions. Optional send window in the contact's zone (minutes after local midnight).
ALTER TABLE `campaign_steps` ADD `position` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `campaign_steps` SET `position` = `step_number`;--> statement-breakpoint
ALTER TABLE `campaign_steps` ADD `window_start` integer;--> statement-breakpoint
ALTER TABLE `campaign_steps` ADD `window_end` integer;--> statement-breakpoint
ALTER TABLE `campaign_steps` ADD `window_weekdays` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Enrolment: the moment the previous step went out (or the start), from which the next step's delay counts.
ALTER TABLE `campaign_enrollments` ADD `anchor_at` integer;--> statement-breakpoint
CREATE INDEX `campaign_enrollments_campaign_status_idx` ON `campaign_enrollments` (`campaign_id`,`status`);--> statement-breakpoint
UPDATE `campaigns` SET
	`waiting_count` = (SELECT count(*) FROM `campaign_enrollments` e WHERE e.campaign_id = campaigns.id AND e.status IN ('active', 'paused')),
	`finished_count` = (SELECT count(*) FROM `campaign_enrollments` e WHERE e.campaign_id = campaigns.id AND e.status = 'completed'),
	`stopped_count` = (SELECT count(*) FROM `campaign_enrollments` e WHERE e.campaign_id = campaigns.id AND e.status = 'stopped'),
	`contact_count` = (SELECT count(*) FROM `campaign_enrollments` e WHERE e.campaign_id = campaigns.id);
