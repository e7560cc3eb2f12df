import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

export type SlotReservation = {
  /** Send times (epoch ms) for the reserved messages, one per message, spaced 1/rate apart. */
  slots: number[];
  /** How many of the requested messages got no slot within the window. */
  deferred: number;
  /** When to try the deferred ones again (ms from now). */
  retryAfterMs: number;
  /** How many exceeded today's cap (UTC day); they wait for tomorrow. */
  overCap: number;
};

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
  const windowMs = opts.windowMs ?? 30_000;
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
    return { slots: [], deferred: count - overCap, retryAfterMs: Math.max(1000, start - opts.now - windowMs + interval), overCap };
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
    retryAfterMs: Math.max(1000, first + want * interval - opts.now - windowMs / 2),
    overCap,
  };
}

/** Start of the next UTC day: when a capped sender may send again. */
export function nextUtcDay(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}
