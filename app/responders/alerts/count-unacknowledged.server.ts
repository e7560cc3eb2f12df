import { count, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { alerts } from "~/db/schema";
import { BELL_COUNT_CAP } from "./bell";

/** The bell's statement, to ride in a batch with the page's other reads (the sidebar's counts, one round trip). */
export function selectUnacknowledgedCount(db: Db) {
  const open = db
    .select({ one: sql`1` })
    .from(alerts)
    .where(eq(alerts.status, "unacknowledged"))
    .limit(BELL_COUNT_CAP + 1)
    .as("open");
  return db.select({ n: count() }).from(open);
}

/** Unacknowledged alerts, bounded: an indexed read of at most BELL_COUNT_CAP + 1 rows. */
export async function countUnacknowledged(db: Db): Promise<number> {
  const row = await selectUnacknowledgedCount(db).get();
  return row?.n ?? 0;
}
