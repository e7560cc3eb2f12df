import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

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
  const cutoff = now.getTime() - retentionDays * 86_400_000;
  const rows = await db.all<{ id: number }>(sql`
    DELETE FROM activity_log WHERE id IN (
      SELECT id FROM activity_log WHERE created_at < ${cutoff} ORDER BY created_at LIMIT ${batch}
    ) RETURNING id`);
  return rows.length;
}
