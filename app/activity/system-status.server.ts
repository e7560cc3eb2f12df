import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { systemStatus } from "~/db/schema";
import { epochMs, stored } from "~/db/stored-values.server";

/** refused:public_url — the last send or webhook refused because PUBLIC_BASE_URL is unusable (check-public-url). */
/** webhooks:<table> — how far the webhook emitter has read an append-only table (decision 036). */
export type StatusKey =
  | "cron_tick"
  | `provider_error:${"sms" | "email" | "ai"}`
  | "refused:public_url"
  | `webhooks:${"compliance_events" | "alerts" | "campaigns"}`;

/** Upserts one status fact (tiny table, one row per key). */
export function recordStatus(db: Db, key: StatusKey, value: Record<string, unknown>, now: Date) {
  return db
    .insert(systemStatus)
    .values({ key, value, updatedAt: now })
    .onConflictDoUpdate({
      target: systemStatus.key,
      set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` },
    });
}

export type Statuses = Record<string, { value: Record<string, unknown>; updatedAt: string }>;
type StatusRow = Awaited<ReturnType<typeof selectStatuses>>[number];

export async function readStatuses(db: Db): Promise<Statuses> {
  return statusesFrom(await selectStatuses(db));
}

/** The read behind readStatuses, for a caller that batches it with its own. */
// The JSON as stored: statusesFrom parses it leniently (a bad row reads as {}), where the column's mapping would throw.
export const selectStatuses = (db: Db) =>
  db
    .select({ key: systemStatus.key, value: stored(systemStatus.value), updatedAt: epochMs(systemStatus.updatedAt) })
    .from(systemStatus);

export function statusesFrom(rows: StatusRow[]): Statuses {
  const out: Statuses = {};
  for (const r of rows) {
    let value: Record<string, unknown> = {};
    try {
      value = JSON.parse(r.value) as Record<string, unknown>;
    } catch {
      value = {};
    }
    out[r.key] = { value, updatedAt: new Date(r.updatedAt).toISOString() };
  }
  return out;
}
