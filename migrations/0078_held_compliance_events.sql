-- Every hold a compliance rule makes is on the record (issue 29 item 4, decision 072's addendum): besides the calling
-- window's deferrals ('quiet_hours'), a text the Florida/Oklahoma cap deferred ('Deferred: <state> allows 3 …') and a
-- text held because carriers filtered its number ('Held: carriers filtered …') are 'held' events, so the TCPA packet
-- and the compliance report show them. A paused campaign's hold is the team's choice, not a rule: not recorded.
DROP TRIGGER IF EXISTS `messages_compliance_au`;
--> statement-breakpoint
CREATE TRIGGER `messages_compliance_au` AFTER UPDATE OF `status` ON `messages`
WHEN old.status <> new.status AND new.direction = 'outbound' AND (new.status = 'skipped'
	OR (new.status = 'pending' AND substr(new.error_message, 1, 9) = 'Deferred:')
	OR (new.status = 'held' AND substr(new.error_message, 1, 23) = 'Held: carriers filtered')) BEGIN
	INSERT INTO compliance_events (at, day, kind, channel, contact_id, address, source, message_id)
	VALUES (new.updated_at, strftime('%Y-%m-%d', new.updated_at / 1000, 'unixepoch'),
		CASE WHEN new.status = 'skipped' THEN 'refused'
			WHEN substr(new.error_message, 1, 68) = 'Deferred: outside allowed sending hours in the recipient''s time zone' THEN 'quiet_hours'
			ELSE 'held' END,
		new.channel, new.contact_id, coalesce(new.phone, new.email), coalesce(new.error_message, 'Unknown reason'), new.id);
END;
