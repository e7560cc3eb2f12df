-- Substring search over name, phone, email and company for 100k+ contacts without table scans:
-- an FTS5 index with the trigram tokenizer (any 3+ character fragment matches), kept in step by triggers.
CREATE VIRTUAL TABLE `contacts_fts` USING fts5(
	`first_name`, `last_name`, `phone`, `email`, `company`,
	content='contacts', content_rowid='id', tokenize='trigram'
);
--> statement-breakpoint
CREATE TRIGGER `contacts_fts_ai` AFTER INSERT ON `contacts` BEGIN
	INSERT INTO `contacts_fts`(rowid, first_name, last_name, phone, email, company)
	VALUES (new.id, new.first_name, new.last_name, new.phone, new.email, new.company);
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_fts_ad` AFTER DELETE ON `contacts` BEGIN
	INSERT INTO `contacts_fts`(`contacts_fts`, rowid, first_name, last_name, phone, email, company)
	VALUES ('delete', old.id, old.first_name, old.last_name, old.phone, old.email, old.company);
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_fts_au` AFTER UPDATE OF first_name, last_name, phone, email, company ON `contacts` BEGIN
	INSERT INTO `contacts_fts`(`contacts_fts`, rowid, first_name, last_name, phone, email, company)
	VALUES ('delete', old.id, old.first_name, old.last_name, old.phone, old.email, old.company);
	INSERT INTO `contacts_fts`(rowid, first_name, last_name, phone, email, company)
	VALUES (new.id, new.first_name, new.last_name, new.phone, new.email, new.company);
END;
