import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contacts, type Role } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { exportConsentEvidence } from "./export-consent-evidence.server";

/**
 * Who may download which consent evidence (decision 023): the whole organisation's file is reporting, superuser work
 * (SPEC §6); one contact's evidence goes to anyone who can open that contact (every signed-in user: contacts are
 * shared). Checks before the stream starts, so a refusal is a status, not a broken download.
 */
export async function openConsentEvidence(
  db: Db,
  opts: { contactId: number | null },
  viewer: { role: Role },
): Promise<ReadableStream<Uint8Array>> {
  if (opts.contactId === null) {
    if (viewer.role !== "superuser")
      throw new AppError(
        "forbidden",
        "The organisation's consent evidence is for superusers. Download one contact's from their page.",
      );
  } else {
    const found = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.id, opts.contactId)).get();
    if (!found) throw new AppError("not_found", "Contact not found");
  }
  return exportConsentEvidence(db, opts);
}
