import { asc, inArray, lte, min, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { capCounters } from "~/db/schema";

/** Windows removed per tick at most, oldest first: a burst of numbers never makes one tick long. */
export const CAP_PURGE_BATCH = 500;

/**
 * Cron task: deletes counter windows that have ended (tallies a week after their day), through the expires_at index.
 * An idle tick reads the index's first entry only (the earliest end), like the retention purge's probe.
 */
export async function purgeOldCapWindows(db: Db, now: Date, batch = CAP_PURGE_BATCH): Promise<number> {
  const first = await db
    .select({ next: min(capCounters.expiresAt) })
    .from(capCounters)
    .get();
  if (first?.next === null || first?.next === undefined || first.next > now.getTime()) return 0;
  const rows = await purgeCapWindows(db, now, batch);
  return rows.length;
}

/** Oldest ended windows first, through cap_counters_expires_at_idx (checked in caps.test.ts). */
export function purgeCapWindows(db: Db, now: Date, batch = CAP_PURGE_BATCH) {
  return db
    .delete(capCounters)
    .where(
      inArray(
        sql`rowid`,
        db
          .select({ rowid: sql`rowid` })
          .from(capCounters)
          .where(lte(capCounters.expiresAt, now.getTime()))
          .orderBy(asc(capCounters.expiresAt))
          .limit(batch),
      ),
    )
    .returning({ n: sql<number>`1` });
}
