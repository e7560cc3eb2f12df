import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { aiClassifications, alerts, chatMessages, leadIdempotency, loginHistory, webhookDeliveries } from "~/db/schema";

const DAY_MS = 86_400_000;
/** Rows removed per table per tick at most: a tick stays short however much is due. */
export const PURGE_CHUNK = 500;

/**
 * Append-only tables and how long their rows are kept (decision 022 gives the reasons). Each is purged through an
 * index on `created_at`, oldest first, PURGE_CHUNK rows per tick. Not here, on purpose: activity_log (its own
 * ACTIVITY_RETENTION_DAYS task), messages (archived to R2, decision 017), sessions and status_backlog (their own
 * tasks), compliance_events (evidence of consent: kept), suppressions and sms_keyword_state (the do-not-contact
 * state itself), ai_usage (each call deletes that user's old windows).
 */
export const RETENTION = [
  // Throttling reads the last hour; User Analytics shows recent sign-ins. Failed logins store what a stranger typed.
  { table: "login_history", days: 90 },
  // The Idea Generator thread: a working scratchpad, not a record.
  { table: "chat_messages", days: 180 },
  // Alerts and the classifier's verdicts quote homeowners' replies; a year covers the AI accuracy figures.
  { table: "alerts", days: 365 },
  { table: "ai_classifications", days: 365 },
  // The webhook delivery log (decision 036): a month answers "did they get it?"; receivers keep their own copy.
  { table: "webhook_deliveries", days: 30 },
  // The lead webhook's Idempotency-Key answers (decision 035/038): vendors retry within hours; a week is ample
  // (Stripe keeps keys for a day).
  { table: "lead_idempotency", days: 7 },
] as const;

export type RetentionTable = (typeof RETENTION)[number]["table"];

const TABLES = {
  login_history: loginHistory,
  chat_messages: chatMessages,
  alerts,
  ai_classifications: aiClassifications,
  webhook_deliveries: webhookDeliveries,
  lead_idempotency: leadIdempotency,
} as const;

/** Deletes at most `chunk` rows of `table` older than `days`, oldest first; returns how many went. */
export function purgeOlderThan(db: Db, table: RetentionTable, days: number, now: Date, chunk = PURGE_CHUNK) {
  const cutoff = now.getTime() - days * DAY_MS;
  // One shape for every table: its created_at (utc) column, and the rowid — `id` where the table has an integer
  // primary key, and lead_idempotency's own (its key is composite). The created_at index holds the rowid.
  const t = TABLES[table] as typeof leadIdempotency;
  const rowid = sql<number>`rowid`;
  return db
    .delete(t)
    .where(
      sql`rowid IN ${db
        .select({ rowid })
        .from(t)
        .where(sql`${t.createdAt} < ${cutoff}`)
        .orderBy(t.createdAt)
        .limit(chunk)}`,
    )
    .returning({ rowid });
}

/**
 * Cron task: one bounded chunk of every table in RETENTION that has rows due; returns the rows removed per table.
 * An idle tick costs one statement reading one index row per table (each table's oldest `created_at`), not a DELETE
 * per table (the idle tick's budget in event-paths.test.ts).
 */
export async function purgeOldRows(db: Db, now: Date, chunk = PURGE_CHUNK) {
  const oldest = sql.join(
    RETENTION.map(({ table }) => sql`(SELECT min(created_at) FROM ${sql.raw(table)}) AS ${sql.raw(table)}`),
    sql`, `,
  );
  // A SELECT without FROM (one index row per table in one statement): drizzle's select() needs a FROM.
  // raw-sql: select-without-from
  const first =
    (await db.get<Record<RetentionTable, number | null>>(sql`SELECT ${oldest}`)) ??
    ({} as Record<RetentionTable, number | null>);
  const removed: Partial<Record<RetentionTable, number>> = {};
  for (const { table, days } of RETENTION) {
    const at = first[table];
    if (at === null || at === undefined || at >= now.getTime() - days * DAY_MS) continue;
    const n = (await purgeOlderThan(db, table, days, now, chunk)).length;
    if (n) removed[table] = n;
  }
  return removed;
}
