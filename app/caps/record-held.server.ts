import { and, eq, sql } from "drizzle-orm";
import { inJson } from "~/db/bulk-update.server";
import { runBatch, type Db } from "~/db/client.server";
import { capCounters } from "~/db/schema";
import { DAY, windowStart, type HeldKind } from "./caps";
import { CAP_KEY, TALLY_KEEP_MS } from "./hit-cap.server";

/** The activity log's action for a held event of this kind. */
export const heldAction = (what: HeldKind) => `held_${what}`;

/**
 * Records that a capped event was held: the organisation's tally for today (what the owning screen shows), the
 * subject's tally, and — the first time today for this subject — an activity log entry, so a loop of a thousand
 * texts is one entry and a count, not a thousand entries. One D1 batch; each statement touches one row.
 */
export async function recordHeld(
  db: Db,
  what: HeldKind,
  subject: string,
  now: Date,
  details: Record<string, unknown> = {},
  userId: number | null = null,
) {
  const day = windowStart(now.getTime(), DAY);
  const channel = `held:${what}`;
  const upsert = (s: string) =>
    db
      .insert(capCounters)
      .values({ channel, subject: s, windowStart: day, hits: 1, expiresAt: day + TALLY_KEEP_MS })
      .onConflictDoUpdate({ target: CAP_KEY, set: { hits: sql`${capCounters.hits} + 1` } });
  const entry = JSON.stringify({ subject, ...details });
  await runBatch(db, [
    upsert("org"),
    ...(subject === "org" ? [] : [upsert(subject)]),
    // raw-sql: guarded-insert
    db.run(sql`INSERT INTO activity_log (user_id, action, details, ip_address, created_at)
               SELECT ${userId}, ${heldAction(what)}, ${entry}, NULL, ${now.getTime()}
               WHERE (SELECT hits FROM cap_counters WHERE channel = ${channel} AND subject = ${subject} AND window_start = ${day}) = 1`),
  ]);
}

/** The tallies' read: one primary-key search per kind (checked in caps.test.ts). */
export function heldToday(db: Db, kinds: readonly HeldKind[], now: Date) {
  const day = windowStart(now.getTime(), DAY);
  return db
    .select({ channel: capCounters.channel, hits: capCounters.hits })
    .from(capCounters)
    .where(
      and(
        inJson(
          capCounters.channel,
          kinds.map((k) => `held:${k}`),
        ),
        eq(capCounters.subject, "org"),
        eq(capCounters.windowStart, day),
      ),
    );
}

/** Today's (UTC) organisation tallies of held events, by kind: one primary-key read per kind. */
export async function readHeldToday<K extends HeldKind>(
  db: Db,
  kinds: readonly K[],
  now: Date,
): Promise<Record<K, number>> {
  const rows = await heldToday(db, kinds, now);
  const out = Object.fromEntries(kinds.map((k) => [k, 0])) as Record<K, number>;
  for (const r of rows) out[r.channel.slice(5) as K] = Number(r.hits);
  return out;
}
