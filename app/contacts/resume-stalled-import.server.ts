import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contactImports, type ContactImport } from "~/db/schema";

/** An import with no progress for this long has probably lost its queue message; re-enqueueing is harmless. */
export const STALLED_AFTER_MS = 60_000;
export function isStalled(imp: ContactImport, now: Date): boolean {
  return imp.status === "importing" && now.getTime() - imp.updatedAt.getTime() > STALLED_AFTER_MS;
}

/**
 * Re-enqueues an import that has made no progress for a while (its queue message lost or dead-lettered).
 * Touching updatedAt first means polling pages enqueue at most once per stall window.
 */
export async function resumeIfStalled(
  db: Db,
  imp: ContactImport,
  now: Date,
  enqueue: (importId: number) => Promise<void>,
) {
  if (!isStalled(imp, now)) return false;
  const touched = await db
    .update(contactImports)
    .set({ updatedAt: now })
    .where(
      and(
        eq(contactImports.id, imp.id),
        eq(contactImports.status, "importing"),
        eq(contactImports.updatedAt, imp.updatedAt),
      ),
    )
    .returning({ id: contactImports.id });
  if (touched.length) await enqueue(imp.id);
  return touched.length > 0;
}
