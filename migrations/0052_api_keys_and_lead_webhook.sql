-- Issue 26 items 1 and 2 (decision 035): API keys, the lead webhook's consent evidence and its Idempotency-Key
-- replays. Hand-written.
-- An API key: only the SHA-256 of the secret is kept (key_hash); `prefix` is the secret's first characters, shown to
-- tell keys apart. scopes is a JSON array ("read", "contacts:write", "send", "leads"). A key acts as its owner.
CREATE TABLE `api_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`scopes` text NOT NULL,
	`expires_at` integer,
	`revoked_at` integer,
	`last_used_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Every Bearer request: one seek on the hash.
CREATE UNIQUE INDEX `api_keys_key_hash_uq` ON `api_keys` (`key_hash`);
--> statement-breakpoint
-- "Your keys" on /account/api-keys, and the cascade when a user is deleted.
CREATE INDEX `api_keys_user_id_idx` ON `api_keys` (`user_id`);
--> statement-breakpoint
-- A lead's consent evidence as the vendor's form showed it (TCPA): who sent it, the text, the seller named, the
-- page, the homeowner's IP and the time. One row per lead received (a repeat lead for a contact adds a row).
CREATE TABLE `lead_consents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contact_id` integer NOT NULL,
	`api_key_id` integer,
	`source` text NOT NULL,
	`consent_text` text,
	`seller_name` text,
	`page_url` text,
	`ip_address` text,
	`consented_at` integer NOT NULL,
	`received_from_ip` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
-- The contact page's evidence (newest first), and the cascade when a contact is deleted.
CREATE INDEX `lead_consents_contact_id_idx` ON `lead_consents` (`contact_id`,`created_at`);
--> statement-breakpoint
-- The SET NULL when a key is deleted.
CREATE INDEX `lead_consents_api_key_id_idx` ON `lead_consents` (`api_key_id`);
--> statement-breakpoint
-- The first answer to an Idempotency-Key, per API key: the same key again gets this answer and writes nothing.
-- Written in the same D1 batch as the leads, so a replay never sees a half-written request.
CREATE TABLE `lead_idempotency` (
	`api_key_id` integer NOT NULL,
	`idempotency_key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer NOT NULL,
	`response` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`api_key_id`, `idempotency_key`),
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE cascade
);
