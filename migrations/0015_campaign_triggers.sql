-- Campaign progress and sequencing kept by triggers, so every path (consumer, reconciler, dead letters, opt-out,
-- contact delete) moves enrolments and counters without each caller knowing about campaigns.
-- Progress per campaign: contact_count (enrolled), waiting (active/paused), finished (completed), stopped.
CREATE TRIGGER `campaign_enrollments_counts_ai` AFTER INSERT ON `campaign_enrollments` BEGIN
	UPDATE `campaigns` SET contact_count = contact_count + 1,
		waiting_count = waiting_count + (new.status IN ('active', 'paused')),
		finished_count = finished_count + (new.status = 'completed'),
		stopped_count = stopped_count + (new.status = 'stopped')
	WHERE id = new.campaign_id;
END;
--> statement-breakpoint
CREATE TRIGGER `campaign_enrollments_counts_ad` AFTER DELETE ON `campaign_enrollments` BEGIN
	UPDATE `campaigns` SET contact_count = contact_count - 1,
		waiting_count = waiting_count - (old.status IN ('active', 'paused')),
		finished_count = finished_count - (old.status = 'completed'),
		stopped_count = stopped_count - (old.status = 'stopped')
	WHERE id = old.campaign_id;
END;
--> statement-breakpoint
CREATE TRIGGER `campaign_enrollments_counts_au` AFTER UPDATE OF status ON `campaign_enrollments`
WHEN old.status IS NOT new.status BEGIN
	UPDATE `campaigns` SET
		waiting_count = waiting_count - (old.status IN ('active', 'paused')) + (new.status IN ('active', 'paused')),
		finished_count = finished_count - (old.status = 'completed') + (new.status = 'completed'),
		stopped_count = stopped_count - (old.status = 'stopped') + (new.status = 'stopped')
	WHERE id = new.campaign_id;
END;
--> statement-breakpoint
-- Automatic completion: a running campaign whose audience is enrolled and has nobody left waiting.
CREATE TRIGGER `campaigns_complete_au` AFTER UPDATE OF waiting_count, enrolling ON `campaigns`
WHEN new.status = 'running' AND new.waiting_count = 0 AND new.enrolling = 0 BEGIN
	UPDATE `campaigns` SET status = 'completed', completed_at = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER),
		updated_at = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
	WHERE id = new.id;
END;
--> statement-breakpoint
-- A step's message handed to the provider (or skipped, e.g. no email address for an email step) advances the
-- enrolment: the next step's delay counts from the moment this one actually went out (sent_at), so a quiet-hours
-- deferral of one step never shortens the gap to the next. The dispatcher resolves the next step (skipping
-- inactive/deleted ones) and applies send windows; here next_run_at is the plain anchor + next delay.
CREATE TRIGGER `messages_campaign_step_done_au` AFTER UPDATE OF status ON `messages`
WHEN new.enrollment_id IS NOT NULL AND new.status IN ('sent', 'delivered', 'skipped')
	AND old.status IN ('pending', 'queued', 'sending', 'held') BEGIN
	UPDATE `campaign_enrollments` SET
		next_step_number = coalesce((SELECT s.position + 1 FROM campaign_steps s WHERE s.id = new.step_id), next_step_number),
		anchor_at = coalesce(new.sent_at, new.updated_at),
		last_sent_at = CASE WHEN new.status = 'skipped' THEN last_sent_at ELSE coalesce(new.sent_at, new.updated_at) END,
		next_run_at = coalesce(new.sent_at, new.updated_at) + coalesce((
			SELECT (n.delay_days * 86400 + n.delay_hours * 3600) * 1000 FROM campaign_steps s JOIN campaign_steps n ON n.campaign_id = s.campaign_id
			WHERE s.id = new.step_id AND n.position > s.position AND n.is_active = 1 ORDER BY n.position LIMIT 1), 0),
		updated_at = new.updated_at
	WHERE id = new.enrollment_id AND status IN ('active', 'paused')
		AND next_step_number <= coalesce((SELECT s.position FROM campaign_steps s WHERE s.id = new.step_id), next_step_number);
END;
--> statement-breakpoint
-- A step's message that failed for good stops that contact's sequence (the reason stays on the enrolment).
CREATE TRIGGER `messages_campaign_step_failed_au` AFTER UPDATE OF status ON `messages`
WHEN new.enrollment_id IS NOT NULL AND new.status = 'failed' AND old.status IN ('pending', 'queued', 'sending', 'held') BEGIN
	UPDATE `campaign_enrollments` SET status = 'stopped', stop_reason = 'send_failed', next_run_at = NULL, updated_at = new.updated_at
	WHERE id = new.enrollment_id AND status IN ('active', 'paused');
END;
