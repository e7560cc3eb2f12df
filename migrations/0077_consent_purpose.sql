-- Consent per purpose (issue 29 item 2, decision 072): marketing consent (a lead form's express written consent)
-- covers every text; informational consent covers appointment texts and a rep's own, never a campaign, broadcast,
-- Quick Send or follow-up. Each consent record says which it was; a contact whose consent is informational only
-- carries it ('informational'; NULL is marketing, as every contact before this was treated).
ALTER TABLE `lead_consents` ADD `purpose` text DEFAULT 'marketing' NOT NULL;--> statement-breakpoint
ALTER TABLE `contact_imports` ADD `consent_purpose` text;--> statement-breakpoint
ALTER TABLE `contacts` ADD `consent_purpose` text;
