-- What a STOP covers (issue 29 item 2, decision 072): 'marketing' when it ended marketing (and a rep's texts) but
-- the contact's appointment texts go on from the informational number; 'all' (or NULL, every earlier opt-out) when
-- it ended everything. Kept on the contact and on the number's suppression, which outlives the contact.
ALTER TABLE `contacts` ADD `opted_out_scope` text;--> statement-breakpoint
ALTER TABLE `suppressions` ADD `scope` text DEFAULT 'all' NOT NULL;--> statement-breakpoint
-- The consent record also notes a scope change (marketing only → everything) and says which an opt-out was.
DROP TRIGGER `contacts_sms_consent_au`;--> statement-breakpoint
CREATE TRIGGER `contacts_sms_consent_au` AFTER UPDATE OF `opted_out_at`, `opted_out_scope` ON `contacts`
WHEN (old.opted_out_at IS NULL) <> (new.opted_out_at IS NULL)
	OR (new.opted_out_at IS NOT NULL AND coalesce(old.opted_out_scope, 'all') <> coalesce(new.opted_out_scope, 'all')) BEGIN
	INSERT INTO compliance_events (at, day, kind, channel, contact_id, address, source)
	-- A scope change happens now (updated_at), not when the contact first opted out.
	VALUES (CASE WHEN old.opted_out_at IS NULL THEN coalesce(new.opted_out_at, new.updated_at) ELSE new.updated_at END,
		strftime('%Y-%m-%d', CASE WHEN old.opted_out_at IS NULL THEN coalesce(new.opted_out_at, new.updated_at) ELSE new.updated_at END / 1000, 'unixepoch'),
		CASE WHEN new.opted_out_at IS NULL THEN 'opt_in' ELSE 'opt_out' END, 'sms', new.id, new.phone,
		CASE WHEN new.opted_out_at IS NULL THEN 'resubscribed'
			ELSE coalesce(new.opted_out_source, 'unknown') || CASE WHEN new.opted_out_scope = 'marketing' THEN ' (marketing only)' ELSE '' END END);
END;
