-- The consent record of an imported list (issue 29 item 2, decision 071): who obtained the leads' consent (the seller
-- named on the lead form) and the exact wording they agreed to, once per file on the import; each contact the import
-- creates points at it. No foreign key on purpose: a completed import is never deleted, and a constraint would make
-- every delete of a staged import scan `contacts` (or cost an index on every contact write).
ALTER TABLE `contact_imports` ADD `consent_seller` text;--> statement-breakpoint
ALTER TABLE `contact_imports` ADD `consent_text` text;--> statement-breakpoint
ALTER TABLE `contacts` ADD `consent_import_id` integer;
