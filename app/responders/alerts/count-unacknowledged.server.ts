import { count, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { alerts } from "~/db/schema";
import { BELL_COUNT_CAP } from "./bell";

/**
 * Unacknowledged alerts for the bell, bounded: an indexed read of at most BELL_COUNT_CAP + 1 rows. A builder, read in
 * the sidebar's one batch (loadSidebarCounts).
 */
export function selectUnacknowledgedCount(db: Db) {
  const open = db
    .select({ one: sql`1` })
    .from(alerts)
    .where(eq(alerts.status, "unacknowledged"))
    .limit(BELL_COUNT_CAP + 1)
    .as("open");
  return db.select({ n: count() }).from(open);
}
