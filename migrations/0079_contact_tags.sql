-- Free tags on a contact (issue 28 item 1): one row a tag, keyed by the contact (its page reads them by the key; a
-- deleted contact takes its tags along) and indexed by the tag (the "gets a tag" rule and a tag's contacts).
CREATE TABLE `contact_tags` (
	`contact_id` integer NOT NULL REFERENCES `contacts`(`id`) ON DELETE cascade,
	`tag` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY (`contact_id`, `tag`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `contact_tags_tag_idx` ON `contact_tags` (`tag`, `contact_id`);
