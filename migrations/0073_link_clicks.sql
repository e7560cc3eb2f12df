-- Branded links with click tracking (issue 29 item 3, decision 068). A tracked text carries /l/<code> links whose
-- code names the message and the link's place in it, signed; the destination stays in the message's own content, so
-- sending writes nothing more. A click writes one row per (message, link): its first click inserts it, later ones
-- count on it. Bots and previews are not clicks.
CREATE TABLE `link_clicks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` integer NOT NULL,
	`link_index` integer NOT NULL,
	`url` text NOT NULL,
	`contact_id` integer,
	`campaign_id` integer,
	`step_id` integer,
	`clicks` integer DEFAULT 1 NOT NULL,
	`first_clicked_at` integer NOT NULL,
	`last_clicked_at` integer NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- The click's own upsert (and a message's clicks in its thread).
CREATE UNIQUE INDEX `link_clicks_message_uq` ON `link_clicks` (`message_id`,`link_index`);--> statement-breakpoint
-- A deleted contact's clicks go with it (the cascade's lookup), and the contact page's list.
CREATE INDEX `link_clicks_contact_idx` ON `link_clicks` (`contact_id`);--> statement-breakpoint
-- Counters the campaign screens read without aggregating clicks: a link's first click counts once for its step and
-- campaign (an upsert's later clicks run the UPDATE path, not this trigger).
ALTER TABLE `campaigns` ADD `click_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `campaign_steps` ADD `click_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE TRIGGER `link_clicks_counts_ai` AFTER INSERT ON `link_clicks` WHEN NEW.campaign_id IS NOT NULL
BEGIN
	UPDATE `campaigns` SET `click_count` = `click_count` + 1 WHERE `id` = NEW.campaign_id;
	UPDATE `campaign_steps` SET `click_count` = `click_count` + 1 WHERE `id` = NEW.step_id;
END;
