-- Issue 24 (decision 024). Hand-written.
-- The Match columns step's choices, remembered per header set: header_hash is the SHA-256 of the file's normalised
-- header list, columns the JSON array of one target (or null) per column. Organisation-wide, like the files a team
-- gets from its CRM; the domain keeps the 50 most recently used and deletes the rest. The primary key is the lookup.
CREATE TABLE `import_column_maps` (
	`header_hash` text PRIMARY KEY NOT NULL,
	`columns` text NOT NULL,
	`used_at` integer NOT NULL
);
