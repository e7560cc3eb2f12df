import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

/** refused:public_url — the last send or webhook refused because PUBLIC_BASE_URL is unusable (check-public-url). */
export type StatusKey = "cron_tick" | `provider_error:${"sms" | "email" | "ai"}` | "refused:public_url";

/** Upserts one status fact (tiny table, one row per key). */
export function recordStatus(db: Db, key: StatusKey, value: Record<string, unknown>, now: Date) {
  return db.run(sql`INSERT INTO system_status (key, value, updated_at) VALUES (${key}, ${JSON.stringify(value)}, ${now.getTime()})
    ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
}

export type Statuses = Record<string, { value: Record<string, unknown>; updatedAt: string }>;
type StatusRow = { key: string; value: string; updated_at: number };

export async function readStatuses(db: Db): Promise<Statuses> {
  return statusesFrom(await selectStatuses(db));
}

/** The read behind readStatuses, for a caller that batches it with its own. */
export const selectStatuses = (db: Db) => db.all<StatusRow>(sql`SELECT key, value, updated_at FROM system_status`);

export function statusesFrom(rows: StatusRow[]): Statuses {
  const out: Statuses = {};
  for (const r of rows) {
    let value: Record<string, unknown> = {};
    try {
      value = JSON.parse(r.value) as Record<string, unknown>;
    } catch {
      value = {};
    }
    out[r.key] = { value, updatedAt: new Date(r.updated_at).toISOString() };
  }
  return out;
}
