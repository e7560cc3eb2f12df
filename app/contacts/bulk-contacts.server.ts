import { logActivity } from "~/activity/log-activity.server";
import type { Db } from "~/db/client.server";
import { type DuplicateMode } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { toContactValues, type ContactValues } from "./contact-row.server";
import { loadContactScope, type ContactViewer } from "./contact-scope.server";
import { contactErrorMessage, contactSchema } from "./contact-schema";
import { dropInFileDuplicates, upsertContactChunk, UPSERT_CHUNK } from "./upsert-contacts.server";

export const MAX_BULK_CONTACTS = 10_000;
export const TOO_MANY_CONTACTS = "Too many contacts in one request (maximum 10,000). Use Upload CSV for larger files.";
const KEEP_ERRORS = 100;

export type BulkResult = { created: number; updated: number; duplicates: number; rejected: number; errors: string[] };

/** SPEC §7: the body is a bare array or `{ contacts: [...] }`. */
export function bulkItems(body: unknown): unknown[] {
  const items = Array.isArray(body) ? body : (body as { contacts?: unknown } | null)?.contacts;
  if (!Array.isArray(items)) throw new AppError("validation", "Expected an array of contacts, or { contacts: [...] }");
  if (items.length === 0) throw new AppError("validation", "No contacts to upload");
  if (items.length > MAX_BULK_CONTACTS) throw new AppError("payload_too_large", TOO_MANY_CONTACTS);
  return items;
}

/**
 * Validates every contact (invalid ones are rejected as "Contact N: …", N 1-based), drops repeats inside the
 * request, then writes in chunks; each chunk is one D1 transaction with duplicate handling against the database.
 */
export async function bulkUpsertContacts(
  db: Db,
  items: unknown[],
  opts: { mode: DuplicateMode; viewer: ContactViewer; ipAddress: string | null; now: Date },
): Promise<BulkResult> {
  const valid: ContactValues[] = [];
  const errors: string[] = [];
  items.forEach((item, index) => {
    const parsed = contactSchema.safeParse(item);
    if (parsed.success) valid.push(toContactValues(parsed.data));
    else errors.push(`Contact ${index + 1}: ${contactErrorMessage(parsed.error)}`);
  });
  // Nothing usable: a 400 with the reasons, and nothing written.
  if (valid.length === 0) throw new AppError("validation", `No valid contacts. ${errors.slice(0, 3).join(" ")}`.trim());
  const { unique, repeats } = dropInFileDuplicates(valid);
  const result: BulkResult = {
    created: 0,
    updated: 0,
    duplicates: repeats,
    rejected: errors.length,
    errors: errors.slice(0, KEEP_ERRORS),
  };
  const scope = await loadContactScope(db, opts.viewer);
  for (let i = 0; i < unique.length; i += UPSERT_CHUNK) {
    const counts = await upsertContactChunk(db, unique.slice(i, i + UPSERT_CHUNK), {
      mode: opts.mode,
      userId: opts.viewer.userId,
      scope,
      now: opts.now,
      consentSource: "api:bulk",
    });
    result.created += counts.created;
    result.updated += counts.updated;
    result.duplicates += counts.duplicates;
  }
  const { errors: _omit, ...details } = result;
  await logActivity(db, "bulk_create_contacts", {
    userId: opts.viewer.userId,
    ipAddress: opts.ipAddress,
    now: opts.now,
    details: { ...details, received: items.length },
  });
  return result;
}
