-- Decision 060: a message quiet hours deferred names the state rule that held it ("Deferred: … (Texas: …)"), so the
-- compliance event trigger counts every note that starts with the deferral text, not one exact string.
DROP TRIGGER IF EXISTS `messages_compliance_au`;
--> statement-breakpoint
CREATE TRIGGER `messages_compliance_au` AFTER UPDATE OF `status` ON `messages`
WHEN old.status <> new.status AND new.direction = 'outbound' AND (new.status = 'skipped'
	OR (new.status = 'pending' AND substr(new.error_message, 1, 68) = 'Deferred: outside allowed sending hours in the recipient''s time zone')) BEGIN
	INSERT INTO compliance_events (at, day, kind, channel, contact_id, address, source, message_id)
	VALUES (new.updated_at, strftime('%Y-%m-%d', new.updated_at / 1000, 'unixepoch'), CASE WHEN new.status = 'skipped' THEN 'refused' ELSE 'quiet_hours' END,
		new.channel, new.contact_id, coalesce(new.phone, new.email), coalesce(new.error_message, 'Unknown reason'), new.id);
END;
