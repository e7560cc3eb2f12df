import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { senderPacing } from "~/db/schema";

export type SlotReservation = {
  /** Send times (epoch ms) for the reserved messages, one per message, slotIntervalMs(rate) apart. */
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

/**
 * Slots are spaced so that any N + 1 consecutive ones span 1 s + PACING_JITTER_MS, not exactly 1 s. Exactly 1/N
 * apart, 1–2 ms of timer jitter already put N + 1 calls into one second (and a late first batch N + 3). The slack
 * covers the gate's margin and lets a late send catch up (createSendGate); it costs 2.9% of the rate.
 */
export const PACING_JITTER_MS = 30;

/**
 * The gate keeps consecutive send starts (1 s + this)/N apart, so N + 1 of them span 1 s + this: sends that reach
 * the provider up to this much more late than the one N before them still count in different seconds there.
 * Slots are wider apart (PACING_JITTER_MS), so a send that started late catches up by the difference, 10 ms a second.
 */
export const PACING_GATE_MARGIN_MS = 20;

/**
 * An idle sender's first slot is this far after `now`: the consumer still writes its claim before the first send,
 * and a first send that starts late makes the sends behind it late too. Never more than the batch's own slots span
 * (`leadFor`): at a rate where 50 slots fit inside the lead (over ~1,700/s per sender, far above any Twilio
 * sender's MPS) the lead was pure idle time — half of every batch — and a late start there stays inside the slots'
 * jitter slack (PACING_JITTER_MS), which already absorbs 30 ms of lateness in any one-second window.
 */
export const PACING_LEAD_MS = 30;

/** The lead for `count` slots: PACING_LEAD_MS, or the time those slots span when that is shorter. */
export const leadFor = (count: number, ratePerSecond: number) =>
  Math.min(PACING_LEAD_MS, count * slotIntervalMs(ratePerSecond));

/** The gate does not sleep for less than this (createSendGate). */
export const GATE_RESOLUTION_MS = 1;

/** Milliseconds between two slots of one sender at `ratePerSecond`. */
export const slotIntervalMs = (ratePerSecond: number) => (1000 + PACING_JITTER_MS) / ratePerSecond;

const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * Reserves send slots for `count` messages from one sender so that, across every consumer, the sender never
 * exceeds `ratePerSecond` in any one-second window (slots slotIntervalMs apart, the first no earlier than
 * `now + leadMs`) and `dailyCap`. D1 serialises writes, so the read-then-reserve UPDATE is atomic per statement;
 * only slots inside `windowMs` are taken (the rest retry later instead of holding a worker).
 */
export async function reserveSendSlots(
  db: Db,
  sender: string,
  count: number,
  opts: ReservationOptions,
  /** The sender's row as `selectPacingState` read it in the caller's own batch (else read here first). */
  state?: readonly PacingState[],
): Promise<SlotReservation> {
  // A state read a moment earlier is as good as one read now: the upsert moves next_slot_ms with max(), so a
  // reservation another consumer made in between only pushes these slots later.
  const [current] = state ?? (await selectPacingState(db, sender));
  const plan = planReservation(current, count, opts);
  if (plan.want === 0) return { slots: [], deferred: plan.deferred, nextFreeMs: plan.start, overCap: plan.overCap };
  const [row] = await reserveStatement(db, sender, plan);
  return reservationFrom(plan, row);
}

export type ReservationOptions = {
  now: number;
  ratePerSecond: number;
  dailyCap: number;
  windowMs?: number;
  leadMs?: number;
};

/** What a reservation of `count` slots takes, decided from the sender's row as read (undefined: never sent). */
export type ReservationPlan = {
  /** Slots it takes now; the rest are `deferred` (outside the window) or `overCap` (over today's cap). */
  want: number;
  deferred: number;
  overCap: number;
  /** The sender's next free slot as read, no earlier than now + the lead. */
  start: number;
  earliest: number;
  interval: number;
  day: string;
};

export function planReservation(
  current: PacingState | undefined,
  count: number,
  opts: ReservationOptions,
): ReservationPlan {
  const interval = slotIntervalMs(opts.ratePerSecond);
  const windowMs = opts.windowMs ?? PACING_WINDOW_MS;
  const earliest = opts.now + (opts.leadMs ?? leadFor(count, opts.ratePerSecond));
  const day = dayOf(opts.now);
  const usedToday = current && current.day === day ? current.day_count : 0;
  const capLeft = Math.max(0, opts.dailyCap - usedToday);
  const start = Math.max(current?.next_slot_ms ?? 0, earliest);
  const fitsWindow = Math.max(0, Math.floor((opts.now + windowMs - start) / interval));
  const want = Math.min(count, capLeft, fitsWindow);
  const overCap = Math.max(0, count - capLeft);
  return { want, deferred: count - want - overCap, overCap, start, earliest, interval, day };
}

/**
 * Takes a plan's slots (`want` > 0) in one statement, so it can ride in a D1 batch (the send consumer's claim);
 * returns the sender's next free slot after them.
 */
export function reserveStatement(db: Db, sender: string, plan: ReservationPlan) {
  const { want, earliest, interval, day } = plan;
  const p = senderPacing;
  return db
    .insert(p)
    .values({ sender, nextSlotMs: earliest + want * interval, day, dayCount: want })
    .onConflictDoUpdate({
      target: p.sender,
      set: {
        nextSlotMs: sql`max(${p.nextSlotMs}, ${earliest}) + ${want * interval}`,
        dayCount: sql`CASE WHEN ${p.day} = ${day} THEN ${p.dayCount} + ${want} ELSE ${want} END`,
        day,
      },
    })
    .returning({ next_slot_ms: p.nextSlotMs });
}

/** The slots a plan got, from the row `reserveStatement` returned. */
export function reservationFrom(plan: ReservationPlan, row: { next_slot_ms: number } | undefined): SlotReservation {
  const { want, earliest, interval } = plan;
  const first = (row?.next_slot_ms ?? earliest + want * interval) - want * interval;
  return {
    // Rounded up: a slot never moves earlier, so N + 1 of them never span less than the spacing promises.
    slots: Array.from({ length: want }, (_, i) => Math.ceil(first + i * interval)),
    deferred: plan.deferred,
    nextFreeMs: first + want * interval,
    overCap: plan.overCap,
  };
}

export type PacingState = Awaited<ReturnType<typeof selectPacingState>>[number];

/** The sender's pacing row (none before its first send), to ride in a D1 batch with the consumer's other reads. */
export function selectPacingState(db: Db, sender: string) {
  return db
    .select({ next_slot_ms: senderPacing.nextSlotMs, day: senderPacing.day, day_count: senderPacing.dayCount })
    .from(senderPacing)
    .where(eq(senderPacing.sender, sender));
}

/**
 * Places `count` messages that found no slot in line behind everything already waiting for this sender, one
 * interval apart, and returns their expected send times. They wait in D1 (`pending`) and the cron brings each
 * back shortly before its time — so a 10,000-message backlog at 1/s neither churns through the queue nor
 * uses up the queue's retries.
 */
export async function projectSlots(
  db: Db,
  sender: string,
  count: number,
  opts: { now: number; ratePerSecond: number; after: number },
) {
  if (count === 0) return [];
  const interval = slotIntervalMs(opts.ratePerSecond);
  const p = senderPacing;
  const [row] = await db
    .update(p)
    .set({ projectedMs: sql`max(${p.projectedMs}, ${p.nextSlotMs}, ${opts.after}, ${opts.now}) + ${count * interval}` })
    .where(eq(p.sender, sender))
    .returning({ projectedMs: p.projectedMs });
  const end = row?.projectedMs ?? Math.max(opts.after, opts.now) + count * interval;
  const start = end - count * interval;
  return Array.from({ length: count }, (_, i) => Math.round(start + i * interval));
}

/**
 * One consumer's start gate: a send starts no earlier than its slot, and no earlier than (1 s +
 * PACING_GATE_MARGIN_MS)/N after the previous send the gate let through. Slots alone are not enough: with several
 * sends in flight, a send that starts late (a timer firing late, a slow answer holding every connection) would
 * otherwise go out in a burst with the sends behind it and put N + 1 into one second. With the gate, late sends
 * never bunch; they catch up slowly, because slots are a little wider apart than the gate's spacing. `resumeAt`
 * is where the sender's line may go on after this consumer's sends (carryLateness), so the next batch keeps the
 * same spacing from this one's last send.
 *
 * The gate's first send is the one whose arrival it cannot bound by its start: it opens the connection (DNS, TCP,
 * TLS), so it reaches the provider up to its whole round trip late — tens of milliseconds on loopback, a few hundred
 * over the internet — while the sends behind it, on the open connection, arrive on time. So send N + 1 (the one
 * that would share a second with it) starts no earlier than 1 s + the margin after the first one's answer came
 * back: the answer is the latest the request can have arrived. It costs nothing while that round trip fits the
 * slots' slack, and once per batch otherwise.
 */
export function createSendGate(opts: {
  ratePerSecond: number;
  clock?: () => number;
  sleep: (ms: number) => Promise<void>;
}) {
  const spacing = (1000 + PACING_GATE_MARGIN_MS) / opts.ratePerSecond;
  // The send that must not share a one-second window with the first (0-based): N + 1 sends may not.
  const afterFirst = Math.max(1, Math.floor(opts.ratePerSecond));
  const clock = opts.clock ?? Date.now;
  let last = -Infinity;
  let passed = 0;
  let chain: Promise<unknown> = Promise.resolve();
  let firstAnswered!: (at: number) => void;
  const firstAnswer = new Promise<number>((resolve) => (firstAnswered = resolve));

  /** Resolves (with the start time) when the send reserved for `slot` may start. Callers are served in call order. */
  const wait = (slot: number): Promise<{ start: number; index: number }> => {
    const turn = chain.then(async () => {
      let at = Math.max(slot, last + spacing);
      if (passed === afterFirst) at = Math.max(at, (await firstAnswer) + 1000 + PACING_GATE_MARGIN_MS);
      // A wait under the timers' resolution is not taken: a timer fires a millisecond or more later anyway, which at
      // high rates cost more than the sends themselves; the slots' jitter slack covers starting that little early.
      for (let i = 0; i < 100 && clock() < at - GATE_RESOLUTION_MS; i++) await opts.sleep(at - clock());
      last = Math.max(at, clock());
      return { start: last, index: passed++ };
    });
    chain = turn.catch(() => undefined);
    return turn;
  };

  return {
    /**
     * Runs `send` when the send reserved for `slot` may start (callers are served in call order); `started` gets
     * the start time before the send runs. Resolves with what `send` returned.
     */
    async run<T>(slot: number, send: (startedAt: number) => Promise<T>): Promise<T> {
      const { start, index } = await wait(slot);
      if (index !== 0) return send(start);
      try {
        return await send(start);
      } finally {
        firstAnswered(clock());
      }
    },
    /** Earliest slot for the sender's next sends, or null when no send went through. */
    get resumeAt(): number | null {
      return Number.isFinite(last) ? last + spacing : null;
    },
  };
}

/**
 * Moves the sender's line to no earlier than `resumeAt` (createSendGate), which is later than the slots when the
 * consumer's sends went out late. A statement for the batch that records the outcomes.
 */
export function carryLateness(db: Db, sender: string, resumeAt: number) {
  return db
    .update(senderPacing)
    .set({ nextSlotMs: sql`max(${senderPacing.nextSlotMs}, ${Math.ceil(resumeAt)})` })
    .where(eq(senderPacing.sender, sender));
}

/** Start of the next UTC day: when a capped sender may send again. */
export function nextUtcDay(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}
