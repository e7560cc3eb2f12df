import { or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contacts } from "~/db/schema";

/** Rows per lookup: one bound JSON array of phones and one of emails (D1 caps bound parameters, not their size). */
const LOOKUP_CHUNK = 1000;

/**
 * How many of an import's rows are already contacts, as the import will treat them (upsert-contacts): by phone (the
 * contact is updated, or left unchanged when duplicates are skipped), else by email only (always skipped: an update
 * merges by phone only). The rest are new. Two index lookups per row, once when the import is staged, so the preview
 * says what "Import" will do instead of promising every valid row (issue 24, item 12).
 */
export async function countExistingContacts(db: Db, rows: readonly { phone: string; email: string | null }[]) {
  let existingPhoneRows = 0;
  let existingEmailRows = 0;
  for (let i = 0; i < rows.length; i += LOOKUP_CHUNK) {
    const chunk = rows.slice(i, i + LOOKUP_CHUNK);
    const phones = JSON.stringify(chunk.map((r) => r.phone));
    const emails = JSON.stringify(chunk.flatMap((r) => (r.email ? [r.email] : [])));
    const found = await db
      .select({ phone: contacts.phone, email: contacts.email })
      .from(contacts)
      .where(
        or(
          sql`${contacts.phone} IN (SELECT value FROM json_each(${phones}))`,
          sql`${contacts.email} IN (SELECT value FROM json_each(${emails}))`,
        ),
      );
    const byPhone = new Set(found.map((f) => f.phone));
    const byEmail = new Set(found.flatMap((f) => (f.email ? [f.email] : [])));
    for (const r of chunk) {
      if (byPhone.has(r.phone)) existingPhoneRows++;
      else if (r.email && byEmail.has(r.email)) existingEmailRows++;
    }
  }
  return { existingPhoneRows, existingEmailRows };
}
