import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contactImports, type ContactImport, type DuplicateMode } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { getContactImport } from "./get-contact-import.server";
import { importNextChunk } from "./import-next-chunk.server";
import type { Clock } from "~/lib/clock";

export const NO_VALID_CONTACTS = "No valid contacts";

/** Moves a staged import to `importing` with the chosen duplicate handling (once: a second confirm is a no-op). */
export async function confirmContactImport(db: Db, id: number, userId: number, mode: DuplicateMode, now: Date) {
  const imp = await getContactImport(db, id, userId);
  if (imp.validRows === 0) throw new AppError("validation", NO_VALID_CONTACTS);
  if (imp.status !== "staged") return imp;
  await db
    .update(contactImports)
    .set({ status: "importing", duplicateMode: mode, updatedAt: now })
    .where(and(eq(contactImports.id, id), eq(contactImports.status, "staged")));
  return { ...imp, status: "importing" as const, duplicateMode: mode };
}

/**
 * Confirms an import and works one chunk inline, so a small file is finished when the response comes back;
 * anything left goes to the queue. Returns the import as it stands afterwards.
 */
export async function startContactImport(
  db: Db,
  opts: { id: number; userId: number; mode: DuplicateMode; clock: Clock; enqueue: (importId: number) => Promise<void> },
): Promise<ContactImport> {
  const confirmed = await confirmContactImport(db, opts.id, opts.userId, opts.mode, opts.clock());
  if (confirmed.status === "importing") {
    const { done } = await importNextChunk(db, opts.id, opts.clock());
    if (!done) await opts.enqueue(opts.id);
  }
  return getContactImport(db, opts.id, opts.userId);
}
