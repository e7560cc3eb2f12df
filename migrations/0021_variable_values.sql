-- Data sources for the remaining platform variables (issue 11):
-- per-contact custom fields (the Solar and Appointment variables) as one JSON object, importable and editable;
-- organisation settings ({{company}} fallback, {{companyPhone}}, {{website}}) as key/value rows superusers edit.
ALTER TABLE `contacts` ADD `custom_fields` text;--> statement-breakpoint
CREATE TABLE `org_settings` (
  `key` text PRIMARY KEY NOT NULL,
  `value` text NOT NULL,
  `updated_at` integer NOT NULL
);
