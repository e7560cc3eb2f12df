import { count, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { alerts } from "~/db/schema";
import { BELL_COUNT_CAP } from "./bell";

/** Unacknowledged alerts, bounded: an indexed read of at most BELL_COUNT_CAP + 1 rows. */
export async function countUnacknowledged(db: Db): Promise<number> {
  const open = db
    .select({ one: sql`1` })
    .from(alerts)
    .where(eq(alerts.status, "unacknowledged"))
    .limit(BELL_COUNT_CAP + 1)
    .as("open");
  const row = await db.select({ n: count() }).from(open).get();
  return row?.n ?? 0;
}
