import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { capCounters } from "~/db/schema";
import { CAPS, DAY, windowStart, type CapLimits, type CapName } from "./caps";

/** The counters' primary key: one row per channel, subject and window. */
export const CAP_KEY = [capCounters.channel, capCounters.subject, capCounters.windowStart];

export type CapCheck = { allowed: boolean; hits: number; limit: number; resetAt: number };
export type CapWindow = { windowMs: number; limit: number };

/**
 * Counts one event of `channel` for `subject` in the current fixed window and says whether it is within `limit`.
 * One UPSERT … RETURNING on the primary key: atomic in D1 (two racing events get different counts) and reads only
 * the row it touches. An event over the limit is still counted, so the count says how many were tried.
 */
export async function hitCap(
  db: Db,
  channel: string,
  subject: string,
  { windowMs, limit }: CapWindow,
  now: Date,
  /** Events counted at once (a batch of lookups); the check says whether all of them are within the limit. */
  amount = 1,
): Promise<CapCheck> {
  const start = windowStart(now.getTime(), windowMs);
  const [row] = await db
    .insert(capCounters)
    .values({ channel, subject, windowStart: start, hits: amount, expiresAt: start + windowMs })
    .onConflictDoUpdate({ target: CAP_KEY, set: { hits: sql`${capCounters.hits} + ${amount}` } })
    .returning({ hits: capCounters.hits });
  const hits = Number(row?.hits ?? 1);
  return { allowed: hits <= limit, hits, limit, resetAt: start + windowMs };
}

/** `hitCap` for one of the configurable caps (caps.ts), with the organisation's limit. */
export function hitNamedCap(
  db: Db,
  name: CapName,
  subject: string,
  limits: CapLimits,
  now: Date,
  amount = 1,
): Promise<CapCheck> {
  return hitCap(db, name, subject, { windowMs: CAPS[name].windowMs, limit: limits[name] }, now, amount);
}

/** How many events `subject` has used of a configurable cap in the current window (a screen's "N of M"). */
export async function readCapUse(db: Db, name: CapName, subject: string, limits: CapLimits, now: Date) {
  const { windowMs } = CAPS[name];
  const start = windowStart(now.getTime(), windowMs);
  const row = await db
    .select({ hits: capCounters.hits })
    .from(capCounters)
    .where(and(eq(capCounters.channel, name), eq(capCounters.subject, subject), eq(capCounters.windowStart, start)))
    .get();
  const used = Math.min(Number(row?.hits ?? 0), limits[name]);
  return { used, limit: limits[name], remaining: Math.max(0, limits[name] - used), resetAt: start + windowMs };
}

/** Tallies screens show keep a week of days (the purge removes them after). */
export const TALLY_KEEP_MS = 8 * DAY;
