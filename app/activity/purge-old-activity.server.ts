import { asc, inArray, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { activityLog } from "~/db/schema";

export const DEFAULT_ACTIVITY_RETENTION_DAYS = 365;
/** Rows removed per tick at most: the delete triggers adjust the counters per row, so keep each tick short. */
export const PURGE_BATCH = 500;

/** `ACTIVITY_RETENTION_DAYS` (whole days ≥ 1), else the default. */
export function activityRetentionDays(env: object): number {
  const raw = (env as Record<string, unknown>).ACTIVITY_RETENTION_DAYS;
  const n = typeof raw === "string" && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  return Number.isInteger(n) && n >= 1 ? n : DEFAULT_ACTIVITY_RETENTION_DAYS;
}

/** Cron task: removes at most `batch` entries older than the retention, oldest first, through the created_at index. */
export async function purgeOldActivity(db: Db, now: Date, retentionDays: number, batch = PURGE_BATCH): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const rows = await db
    .delete(activityLog)
    .where(
      inArray(
        activityLog.id,
        db
          .select({ id: activityLog.id })
          .from(activityLog)
          .where(lt(activityLog.createdAt, cutoff))
          .orderBy(asc(activityLog.createdAt))
          .limit(batch),
      ),
    )
    .returning({ id: activityLog.id });
  return rows.length;
}
