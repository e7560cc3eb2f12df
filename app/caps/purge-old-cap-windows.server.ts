import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

/** Windows removed per tick at most, oldest first: a burst of numbers never makes one tick long. */
export const CAP_PURGE_BATCH = 500;

/**
 * Cron task: deletes counter windows that have ended (tallies a week after their day), through the expires_at index.
 * An idle tick reads the index's first entry only (the earliest end), like the retention purge's probe.
 */
export async function purgeOldCapWindows(db: Db, now: Date, batch = CAP_PURGE_BATCH): Promise<number> {
  const first = await db.get<{ next: number | null }>(sql`SELECT min(expires_at) AS next FROM cap_counters`);
  if (first?.next === null || first?.next === undefined || first.next > now.getTime()) return 0;
  const rows = await db.all<{ n: number }>(purgeCapWindowsSql(now, batch));
  return rows.length;
}

/** Oldest ended windows first, through cap_counters_expires_at_idx (checked in caps.test.ts). */
export function purgeCapWindowsSql(now: Date, batch = CAP_PURGE_BATCH) {
  return sql`DELETE FROM cap_counters WHERE rowid IN (
      SELECT rowid FROM cap_counters WHERE expires_at <= ${now.getTime()} ORDER BY expires_at LIMIT ${batch}
    ) RETURNING 1 AS n`;
}
