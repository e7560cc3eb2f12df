import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

export type SlotReservation = {
  /** Send times (epoch ms) for the reserved messages, one per message, spaced 1/rate apart. */
  slots: number[];
  /** How many of the requested messages got no slot within the window. */
  deferred: number;
  /** The sender's next free slot after this reservation (epoch ms). */
  nextFreeMs: number;
  /** How many exceeded today's cap (UTC day); they wait for tomorrow. */
  overCap: number;
};

/** How far ahead a consumer may hold slots (and wait for them). Longer than the cron interval, so a backlog
 * that comes back through the cron always finds its slots inside the window. */
export const PACING_WINDOW_MS = 120_000;

const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * Reserves send slots for `count` messages from one sender so that, across every consumer, the sender never
 * exceeds `ratePerSecond` and `dailyCap`. D1 serialises writes, so the read-then-reserve UPDATE is atomic
 * per statement; only slots inside `windowMs` are taken (the rest retry later instead of holding a worker).
 */
export async function reserveSendSlots(
  db: Db,
  sender: string,
  count: number,
  opts: { now: number; ratePerSecond: number; dailyCap: number; windowMs?: number },
): Promise<SlotReservation> {
  const interval = 1000 / opts.ratePerSecond;
  const windowMs = opts.windowMs ?? PACING_WINDOW_MS;
  const day = dayOf(opts.now);
  const current = await db.get<{ next_slot_ms: number; day: string; day_count: number }>(
    sql`SELECT next_slot_ms, day, day_count FROM sender_pacing WHERE sender = ${sender}`,
  );
  const usedToday = current && current.day === day ? current.day_count : 0;
  const capLeft = Math.max(0, opts.dailyCap - usedToday);
  const start = Math.max(current?.next_slot_ms ?? 0, opts.now);
  const fitsWindow = Math.max(0, Math.floor((opts.now + windowMs - start) / interval));
  const want = Math.min(count, capLeft, fitsWindow);
  const overCap = Math.max(0, count - capLeft);
  if (want === 0) {
    return { slots: [], deferred: count - overCap, nextFreeMs: start, overCap };
  }
  const row = await db.get<{ next_slot_ms: number }>(sql`
    INSERT INTO sender_pacing (sender, next_slot_ms, day, day_count) VALUES (${sender}, ${opts.now + want * interval}, ${day}, ${want})
    ON CONFLICT(sender) DO UPDATE SET
      next_slot_ms = max(next_slot_ms, ${opts.now}) + ${want * interval},
      day_count = CASE WHEN day = ${day} THEN day_count + ${want} ELSE ${want} END,
      day = ${day}
    RETURNING next_slot_ms`);
  const first = (row?.next_slot_ms ?? opts.now + want * interval) - want * interval;
  return {
    slots: Array.from({ length: want }, (_, i) => Math.round(first + i * interval)),
    deferred: count - want - overCap,
    nextFreeMs: first + want * interval,
    overCap,
  };
}

/**
 * Places `count` messages that found no slot in line behind everything already waiting for this sender, one
 * interval apart, and returns their expected send times. They wait in D1 (`pending`) and the cron brings each
 * back shortly before its time — so a 10,000-message backlog at 1/s neither churns through the queue nor
 * uses up the queue's retries.
 */
export async function projectSlots(db: Db, sender: string, count: number, opts: { now: number; ratePerSecond: number; after: number }) {
  if (count === 0) return [];
  const interval = 1000 / opts.ratePerSecond;
  const row = await db.get<{ projected_ms: number }>(sql`
    UPDATE sender_pacing SET projected_ms = max(projected_ms, next_slot_ms, ${opts.after}, ${opts.now}) + ${count * interval}
    WHERE sender = ${sender}
    RETURNING projected_ms`);
  const end = row?.projected_ms ?? Math.max(opts.after, opts.now) + count * interval;
  const start = end - count * interval;
  return Array.from({ length: count }, (_, i) => Math.round(start + i * interval));
}

/** Start of the next UTC day: when a capped sender may send again. */
export function nextUtcDay(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}
