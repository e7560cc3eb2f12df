-- Compliance report (issue 14): every consent change and every refused or held send, recorded by triggers so that
-- no path (STOP/START keyword, unsubscribe link, carrier 21610, manual edit, import) can forget it. The report reads
-- days × kinds from here; the evidence export reads one contact's rows or all of them in id order.
CREATE TABLE `compliance_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`channel` text NOT NULL,
	`contact_id` integer,
	`address` text,
	`source` text,
	`message_id` integer
);
--> statement-breakpoint
CREATE INDEX `compliance_events_day_kind_idx` ON `compliance_events` (`day`,`kind`);
--> statement-breakpoint
CREATE INDEX `compliance_events_contact_idx` ON `compliance_events` (`contact_id`,`id`);
--> statement-breakpoint
CREATE INDEX `compliance_events_kind_id_idx` ON `compliance_events` (`kind`,`id`);
--> statement-breakpoint
CREATE TRIGGER `contacts_sms_consent_au` AFTER UPDATE OF `opted_out_at` ON `contacts`
WHEN (old.opted_out_at IS NULL) <> (new.opted_out_at IS NULL) BEGIN
	INSERT INTO compliance_events (at, day, kind, channel, contact_id, address, source)
	VALUES (coalesce(new.opted_out_at, new.updated_at), strftime('%Y-%m-%d', coalesce(new.opted_out_at, new.updated_at) / 1000, 'unixepoch'),
		CASE WHEN new.opted_out_at IS NULL THEN 'opt_in' ELSE 'opt_out' END, 'sms', new.id, new.phone,
		CASE WHEN new.opted_out_at IS NULL THEN 'resubscribed' ELSE coalesce(new.opted_out_source, 'unknown') END);
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_email_consent_au` AFTER UPDATE OF `email_unsubscribed_at` ON `contacts`
WHEN (old.email_unsubscribed_at IS NULL) <> (new.email_unsubscribed_at IS NULL) BEGIN
	INSERT INTO compliance_events (at, day, kind, channel, contact_id, address, source)
	VALUES (coalesce(new.email_unsubscribed_at, new.updated_at), strftime('%Y-%m-%d', coalesce(new.email_unsubscribed_at, new.updated_at) / 1000, 'unixepoch'),
		CASE WHEN new.email_unsubscribed_at IS NULL THEN 'opt_in' ELSE 'opt_out' END, 'email', new.id, new.email,
		CASE WHEN new.email_unsubscribed_at IS NULL THEN 'resubscribed' ELSE 'unsubscribe link' END);
END;
--> statement-breakpoint
-- A number or address that is no contact (a contact's own change is recorded by the triggers above).
CREATE TRIGGER `suppressions_consent_ai` AFTER INSERT ON `suppressions`
WHEN NOT EXISTS (SELECT 1 FROM contacts WHERE (new.channel = 'sms' AND phone = new.address) OR (new.channel = 'email' AND email = new.address)) BEGIN
	INSERT INTO compliance_events (at, day, kind, channel, address, source)
	VALUES (new.created_at, strftime('%Y-%m-%d', new.created_at / 1000, 'unixepoch'), 'opt_out', new.channel, new.address, coalesce(new.source, new.reason));
END;
--> statement-breakpoint
CREATE TRIGGER `suppressions_consent_ad` AFTER DELETE ON `suppressions`
WHEN NOT EXISTS (SELECT 1 FROM contacts WHERE (old.channel = 'sms' AND phone = old.address) OR (old.channel = 'email' AND email = old.address)) BEGIN
	INSERT INTO compliance_events (at, day, kind, channel, address, source)
	VALUES (CAST(unixepoch('subsec') * 1000 AS INTEGER), strftime('%Y-%m-%d', 'now'), 'opt_in', old.channel, old.address, 'resubscribed');
END;
--> statement-breakpoint
-- Sends: refused (skipped, with the reason) and held for quiet hours (the consumer's deferral note).
CREATE TRIGGER `messages_compliance_au` AFTER UPDATE OF `status` ON `messages`
WHEN old.status <> new.status AND new.direction = 'outbound' AND (new.status = 'skipped'
	OR (new.status = 'pending' AND new.error_message = 'Deferred: outside allowed sending hours in the recipient''s time zone')) BEGIN
	INSERT INTO compliance_events (at, day, kind, channel, contact_id, address, source, message_id)
	VALUES (new.updated_at, strftime('%Y-%m-%d', new.updated_at / 1000, 'unixepoch'), CASE WHEN new.status = 'skipped' THEN 'refused' ELSE 'quiet_hours' END,
		new.channel, new.contact_id, coalesce(new.phone, new.email), coalesce(new.error_message, 'Unknown reason'), new.id);
END;
--> statement-breakpoint
-- The opt-outs that exist today, so the evidence export is complete from the start.
INSERT INTO compliance_events (at, day, kind, channel, contact_id, address, source)
SELECT opted_out_at, strftime('%Y-%m-%d', opted_out_at / 1000, 'unixepoch'), 'opt_out', 'sms', id, phone, coalesce(opted_out_source, 'unknown') FROM contacts WHERE opted_out_at IS NOT NULL;
--> statement-breakpoint
INSERT INTO compliance_events (at, day, kind, channel, contact_id, address, source)
SELECT email_unsubscribed_at, strftime('%Y-%m-%d', email_unsubscribed_at / 1000, 'unixepoch'), 'opt_out', 'email', id, email, 'unsubscribe link' FROM contacts WHERE email_unsubscribed_at IS NOT NULL;
