-- Line-type lookup (issue 29 item 6, decision 069): what the carrier lookup said a contact's number is, and when.
-- A landline cannot receive texts: the lookup marks it not sendable, and the send path already skips those.
ALTER TABLE `contacts` ADD `line_type` text;--> statement-breakpoint
ALTER TABLE `contacts` ADD `line_type_checked_at` integer;--> statement-breakpoint
-- The numbers still to look up, newest first: the lookup task reads O(its chunk) through this index. A number leaves
-- it once looked up (or once it is not sendable for another reason).
CREATE INDEX `contacts_line_type_due_idx` ON `contacts` (`id`) WHERE line_type_checked_at IS NULL AND sendable = 1;--> statement-breakpoint
-- Every path that changes a number (the form, an import's update, the API) makes it unknown again, to be looked up.
CREATE TRIGGER `contacts_line_type_phone_au` AFTER UPDATE OF `phone` ON `contacts`
WHEN NEW.phone IS NOT OLD.phone AND NEW.line_type_checked_at IS NOT NULL
BEGIN
	UPDATE `contacts` SET `line_type` = NULL, `line_type_checked_at` = NULL WHERE `id` = NEW.id;
END;--> statement-breakpoint
-- Every write re-assesses `sendable` from the number's format (contact-row.server.ts): a known landline stays unsendable.
CREATE TRIGGER `contacts_landline_sendable_au` AFTER UPDATE OF `sendable` ON `contacts`
WHEN NEW.sendable = 1 AND NEW.line_type = 'landline' AND NEW.phone IS OLD.phone
BEGIN
	UPDATE `contacts` SET `sendable` = 0, `unsendable_reason` = 'Landline: it cannot receive texts (carrier lookup)' WHERE `id` = NEW.id;
END;
