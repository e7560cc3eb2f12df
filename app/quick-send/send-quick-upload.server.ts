import { eq, sql } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { contactImportRows, contactImports, contacts } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import type { SendRequestDeps } from "~/messaging/check-send-request.server";
import { sendBroadcast } from "~/messaging/send-broadcast.server";
import { getContactImport } from "~/contacts/get-contact-import.server";
import type { Actor } from "~/lib/actor";

// SPEC §5.
export const NO_CONTACTS = "No contacts";
export const QUICK_SEND_NOT_FOUND = "Quick send not found";
export const STILL_SAVING = "The contacts are still being saved. Please wait a moment and try again.";

/**
 * The saved contacts of a quick upload: every contact whose phone is one of its staged rows (through the unique
 * phone index), new or already there. Bounded by the file (≤ 100,000 rows).
 */
export async function quickSendRecipients(db: Db, importId: number): Promise<number[]> {
  const rows = await db
    .selectDistinct({ id: contacts.id })
    .from(contactImportRows)
    .innerJoin(contacts, eq(contacts.phone, sql`json_extract(${contactImportRows.data}, '$.phone')`))
    .where(eq(contactImportRows.importId, importId));
  return rows.map((r) => r.id);
}

/**
 * Step 3 of Quick Upload & Send, once its contacts are saved: one broadcast through the send pipeline, one queued
 * message per contact with the #PLACEHOLDERS# filled from the contact at send time (opt-outs, quiet hours and
 * pacing apply as to any broadcast). Keyed by the upload, so a second confirm returns the same broadcast.
 */
export async function sendQuickUpload(
  deps: SendRequestDeps,
  importId: number,
  actor: Actor,
): Promise<{ broadcastId: number }> {
  const { db } = deps;
  const imp = await getContactImport(db, importId, actor.userId);
  if (imp.purpose !== "quick_send" || !imp.message) throw new AppError("not_found", QUICK_SEND_NOT_FOUND);
  if (imp.broadcastId) return { broadcastId: imp.broadcastId };
  if (imp.status === "staged" || imp.status === "importing") throw new AppError("conflict", STILL_SAVING);
  if (imp.status !== "completed")
    throw new AppError("conflict", "This upload was not imported, so there is nothing to send.");
  const contactIds = await quickSendRecipients(db, imp.id);
  if (contactIds.length === 0) throw new AppError("validation", NO_CONTACTS);
  const sent = await sendBroadcast(
    deps,
    {
      type: "sms",
      content: imp.message,
      contactIds,
      scheduledAt: imp.scheduledAt ? imp.scheduledAt.toISOString() : null,
    },
    actor,
    `quick-upload:${imp.id}`,
  );
  await runBatch(db, [
    db
      .update(contactImports)
      .set({ broadcastId: sent.broadcastId, updatedAt: deps.now })
      .where(eq(contactImports.id, imp.id)),
    // The staged rows have done their job.
    db.delete(contactImportRows).where(eq(contactImportRows.importId, imp.id)),
  ]);
  return { broadcastId: sent.broadcastId };
}
