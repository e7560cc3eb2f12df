-- Quick Upload & Send (issue 11): a quick upload is a staged contact import that also carries the message to send
-- once its contacts are saved (and when), and the broadcast that sent it, so a second confirm sends nothing twice.
ALTER TABLE `contact_imports` ADD `purpose` text DEFAULT 'contacts' NOT NULL;
--> statement-breakpoint
ALTER TABLE `contact_imports` ADD `message` text;
--> statement-breakpoint
ALTER TABLE `contact_imports` ADD `scheduled_at` integer;
--> statement-breakpoint
ALTER TABLE `contact_imports` ADD `broadcast_id` integer REFERENCES broadcasts(id) ON DELETE SET NULL;
