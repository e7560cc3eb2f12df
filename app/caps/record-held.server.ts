import { sql } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { DAY, windowStart, type HeldKind } from "./caps";
import { TALLY_KEEP_MS } from "./hit-cap.server";

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
    db.run(sql`INSERT INTO cap_counters (channel, subject, window_start, hits, expires_at) VALUES (${channel}, ${s}, ${day}, 1, ${day + TALLY_KEEP_MS})
               ON CONFLICT (channel, subject, window_start) DO UPDATE SET hits = hits + 1`);
  const entry = JSON.stringify({ subject, ...details });
  await runBatch(db, [
    upsert("org"),
    ...(subject === "org" ? [] : [upsert(subject)]),
    db.run(sql`INSERT INTO activity_log (user_id, action, details, ip_address, created_at)
               SELECT ${userId}, ${heldAction(what)}, ${entry}, NULL, ${now.getTime()}
               WHERE (SELECT hits FROM cap_counters WHERE channel = ${channel} AND subject = ${subject} AND window_start = ${day}) = 1`),
  ]);
}

/** The tallies' read: one primary-key search per kind (checked in caps.test.ts). */
export function heldTodaySql(kinds: readonly HeldKind[], now: Date) {
  const day = windowStart(now.getTime(), DAY);
  return sql`SELECT channel, hits FROM cap_counters
    WHERE channel IN (SELECT 'held:' || value FROM json_each(${JSON.stringify(kinds)})) AND subject = 'org' AND window_start = ${day}`;
}

/** Today's (UTC) organisation tallies of held events, by kind: one primary-key read per kind. */
export async function readHeldToday<K extends HeldKind>(
  db: Db,
  kinds: readonly K[],
  now: Date,
): Promise<Record<K, number>> {
  const rows = await db.all<{ channel: string; hits: number }>(heldTodaySql(kinds, now));
  const out = Object.fromEntries(kinds.map((k) => [k, 0])) as Record<K, number>;
  for (const r of rows) out[r.channel.slice(5) as K] = Number(r.hits);
  return out;
}
