import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { autoId, createdAt, parentId, updatedAt, utc } from "./_columns";
import { broadcasts } from "./broadcasts";
import { CONSENT_PURPOSES } from "./contacts";
import { users } from "./users";

/** mapping: the file's raw cells are staged (row 1 = its header) until the Match columns step (decision 024). */
export const IMPORT_STATUSES = ["mapping", "staged", "importing", "completed", "failed", "cancelled"] as const;
export const DUPLICATE_MODES = ["skip", "update"] as const;
/** contacts: the Upload CSV dialog; quick_send: Quick Upload & Send (the contacts are saved, then texted). */
export const IMPORT_PURPOSES = ["contacts", "quick_send"] as const;
export type DuplicateMode = (typeof DUPLICATE_MODES)[number];

/**
 * A CSV upload parsed on the server and staged in contact_import_rows, so the preview and the
 * confirmed import use the same rows (the browser never re-sends them) and big files import in
 * chunks through the queue, each chunk all-or-nothing.
 */
export const contactImports = sqliteTable(
  "contact_imports",
  {
    id: autoId(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    fileName: text("file_name").notNull(),
    status: text("status", { enum: IMPORT_STATUSES }).notNull().default("staged"),
    duplicateMode: text("duplicate_mode", { enum: DUPLICATE_MODES }).notNull().default("skip"),
    // The owner chosen for the whole file on the preview (migration 0056, decision 044); null = none.
    ownerUserId: integer("owner_user_id").references(() => users.id, { onDelete: "set null" }),
    // Staged rows that name their own owner in the file's Owner column (migration 0062, decision 050).
    ownerRows: integer("owner_rows").notNull().default(0),
    totalRows: integer("total_rows").notNull().default(0), // data rows in the file
    validRows: integer("valid_rows").notNull().default(0), // staged rows
    errorCount: integer("error_count").notNull().default(0), // rejected rows' error lines
    rejectedRows: integer("rejected_rows").notNull().default(0),
    fileDuplicates: integer("file_duplicates").notNull().default(0), // repeats inside the file, never staged
    errors: text("errors", { mode: "json" }).$type<string[]>().notNull().default([]), // first 100 error lines
    processedRows: integer("processed_rows").notNull().default(0),
    cursorRowId: integer("cursor_row_id").notNull().default(0),
    createdCount: integer("created_count").notNull().default(0),
    updatedCount: integer("updated_count").notNull().default(0),
    duplicateCount: integer("duplicate_count").notNull().default(0), // skipped because they already exist
    // Counted when staged (the preview): rows already a contact by phone (updated or skipped per the choice), and by
    // email only (always skipped: an update merges by phone only). NULL: not counted (migration 0051).
    existingPhoneRows: integer("existing_phone_rows"),
    existingEmailRows: integer("existing_email_rows"),
    failureMessage: text("failure_message"),
    // The list's consent record (migration 0075, decision 071): the seller who obtained consent and the exact wording.
    consentSeller: text("consent_seller"),
    consentText: text("consent_text"),
    // What that consent covered (migration 0077, decision 072); null: marketing.
    consentPurpose: text("consent_purpose", { enum: CONSENT_PURPOSES }),
    purpose: text("purpose", { enum: IMPORT_PURPOSES }).notNull().default("contacts"),
    // Quick send: the SMS with its #PLACEHOLDERS#, when to send it, and the broadcast once sent.
    message: text("message"),
    scheduledAt: utc("scheduled_at"),
    broadcastId: integer("broadcast_id").references(() => broadcasts.id, { onDelete: "set null" }),
    completedAt: utc("completed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("contact_imports_created_by_idx").on(t.createdBy, t.createdAt)],
);

export const contactImportRows = sqliteTable(
  "contact_import_rows",
  {
    id: autoId(),
    importId: parentId("import_id", () => contactImports.id),
    rowNumber: integer("row_number").notNull(),
    data: text("data").notNull(), // JSON of the parsed, normalised row
  },
  (t) => [index("contact_import_rows_import_id_idx").on(t.importId, t.id)],
);

export type ContactImport = typeof contactImports.$inferSelect;
export type NewContactImport = typeof contactImports.$inferInsert;
