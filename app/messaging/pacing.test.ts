import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { db } from "../../tests/factories";
import { carryLateness, createSendGate, reserveSendSlots, slotIntervalMs } from "./pacing.server";

const T = Date.parse("2026-07-15T18:00:00Z"); // a fixed clock: nothing here reads the real time
// A counter, not a random pick: two tests drawing one number would share a pacing row.
let senderSeq = Math.floor(Math.random() * 9000);
const sender = () => `+1480555${String(1000 + (senderSeq++ % 9000))}`;
const big = { dailyCap: 1_000_000, windowMs: 600_000 };

/** Most sends inside any half-open one-second window [t, t + 1000). */
function maxInOneSecond(times: number[]): number {
  const all = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < all.length; i++) {
    while (all[i] - all[j] >= 1000) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}

describe("send slot reservation (fixed clock)", () => {
  it("no one-second window can hold more than N sends, even when sends reach the provider up to 20 ms late", async () => {
    const from = sender();
    const N = 20;
    // Three consumers one after another, the second while the first's slots are still ahead, the third idle.
    const a = await reserveSendSlots(db(), from, 50, { now: T, ratePerSecond: N, ...big });
    const b = await reserveSendSlots(db(), from, 50, { now: T + 10, ratePerSecond: N, ...big });
    const c = await reserveSendSlots(db(), from, 7, { now: T + 60_000, ratePerSecond: N, ...big });
    const slots = [...a.slots, ...b.slots, ...c.slots];
    expect(slots).toHaveLength(107);
    expect(maxInOneSecond(slots)).toBeLessThanOrEqual(N);
    // Worst case for a window: everything up to some send is 20 ms late, everything after it on time.
    for (let k = 0; k < slots.length; k++) {
      const arrivals = slots.map((s, i) => (i <= k ? s + 20 : s));
      expect(maxInOneSecond(arrivals)).toBeLessThanOrEqual(N);
    }
    // Nor by more than a rounding millisecond below the rate (≥ 0.95 N is the bench's floor).
    const rate = ((a.slots.length - 1) * 1000) / (a.slots.at(-1)! - a.slots[0]);
    expect(rate).toBeGreaterThan(0.97 * N);
    expect(rate).toBeLessThan(N);
  });

  it("an idle sender's first slot leaves time for the claim write instead of being already past", async () => {
    const res = await reserveSendSlots(db(), sender(), 3, { now: T, ratePerSecond: 20, ...big });
    expect(res.slots[0]).toBeGreaterThan(T);
    expect(res.slots[0]).toBeLessThan(T + 100);
  });

  it("the lead never exceeds what the batch's own slots span: at a very high rate there is no idle wait", async () => {
    const paced = await reserveSendSlots(db(), sender(), 50, { now: T, ratePerSecond: 20, ...big });
    expect(paced.slots[0] - T).toBe(30); // 50 slots at 20/s span 2.6 s: the whole lead
    const fast = await reserveSendSlots(db(), sender(), 50, { now: T, ratePerSecond: 100_000, ...big });
    expect(fast.slots[0] - T).toBeLessThanOrEqual(1); // 50 slots at 100,000/s span 0.5 ms
    expect(fast.slots).toHaveLength(50);
  });

  it("at a rate where the lead is shortened, sends up to 30 ms late still keep every one-second window at N or under", async () => {
    const from = sender();
    const N = 5000; // 50 slots span ~10 ms: the lead is 10 ms, not 30
    const slots: number[] = [];
    for (let b = 0; b < 150; b++)
      slots.push(...(await reserveSendSlots(db(), from, 50, { now: T + b * 5, ratePerSecond: N, ...big })).slots);
    expect(slots.length).toBe(7500);
    expect(maxInOneSecond(slots)).toBeLessThanOrEqual(N);
    // Everything up to some send is 30 ms late (a slow claim), everything after it on time (another consumer).
    for (let k = 0; k < slots.length; k += 250) {
      const arrivals = slots.map((s, i) => (i <= k ? s + 30 : s));
      expect(maxInOneSecond(arrivals)).toBeLessThanOrEqual(N);
    }
  });

  it("a batch's late last send moves the sender's line: the next batch starts one interval after it", async () => {
    const from = sender();
    const first = await reserveSendSlots(db(), from, 5, { now: T, ratePerSecond: 10, ...big });
    let now = T;
    const gate = createSendGate({ ratePerSecond: 10, clock: () => now, sleep: async (ms) => void (now += ms) });
    const started = async (at: number) => at;
    for (const slot of first.slots.slice(0, -1)) await gate.run(slot, started);
    now = first.slots.at(-1)! + 80; // the last send went out 80 ms late
    const lastStart = await gate.run(first.slots.at(-1)!, started);
    await carryLateness(db(), from, gate.resumeAt!);
    const next = await reserveSendSlots(db(), from, 5, { now: lastStart + 5, ratePerSecond: 10, ...big });
    expect(next.slots[0] - lastStart).toBeGreaterThanOrEqual(100);
  });
});

describe("send gate (fixed clock)", () => {
  it("the first send opens the connection and arrives late: the sends behind it still never put N + 1 into one second", async () => {
    const N = 20;
    const reservation = await reserveSendSlots(db(), sender(), 60, { now: T, ratePerSecond: N, ...big });
    let now = T;
    const gate = createSendGate({ ratePerSecond: N, clock: () => now, sleep: async (ms) => void (now += ms) });
    const arrivals: number[] = [];
    for (const [i, slot] of reservation.slots.entries())
      await gate.run(slot, async (started) => {
        // DNS, TCP and TLS before the first request: it reaches the provider 100 ms after it started, and its
        // answer comes back 20 ms after that; the rest ride the open connection.
        arrivals.push(i === 0 ? started + 100 : started);
        if (i === 0) now = started + 120;
      });
    expect(maxInOneSecond(arrivals)).toBeLessThanOrEqual(N);
    // Only the send that would have shared the first one's second waited; the rate overall stays ≥ 0.95 N.
    expect(((arrivals.length - 1) * 1000) / (arrivals.at(-1)! - arrivals[0])).toBeGreaterThan(0.95 * N);
  });

  it("a send never starts before its slot, and late sends never catch up in a burst of more than N a second (property)", async () => {
    const N = 20;
    const reservation = await reserveSendSlots(db(), sender(), 50, { now: T, ratePerSecond: N, ...big });
    await fc.assert(
      fc.asyncProperty(
        // How late each sleep wakes (timers, a busy event loop), and how long each send holds its connection.
        fc.array(fc.integer({ min: 0, max: 120 }), { minLength: 50, maxLength: 50 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 50, maxLength: 50 }),
        // How long each request takes to reach the provider: any spread up to the gate's 20 ms margin, except the
        // first, which opens the connection and may take as long as it holds it.
        fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 50, maxLength: 50 }),
        fc.integer({ min: 0, max: 400 }),
        async (oversleep, holdMs, transit, firstTransit) => {
          transit = [Math.min(firstTransit, holdMs[0]), ...transit.slice(1)];
          let now = T;
          let wake = 0;
          const timers: Array<{ at: number; resolve: () => void }> = [];
          const sleep = (ms: number) =>
            new Promise<void>((resolve) =>
              timers.push({ at: now + ms + oversleep[wake++ % oversleep.length], resolve }),
            );
          const gate = createSendGate({ ratePerSecond: N, clock: () => now, sleep });
          const starts: number[] = [];
          // 6 sends in flight, as the consumer dispatches them.
          let next = 0;
          const worker = async () => {
            while (next < reservation.slots.length) {
              const i = next++;
              await gate.run(reservation.slots[i], async (started) => {
                expect(started).toBeGreaterThanOrEqual(reservation.slots[i]);
                starts[i] = now;
                await sleep(holdMs[i]);
              });
            }
          };
          const done = Promise.all(Array.from({ length: 6 }, worker));
          // Drive the fake clock: always fire the earliest timer.
          for (let guard = 0; guard < 10_000; guard++) {
            await new Promise((r) => setTimeout(r, 0));
            if (!timers.length) break;
            timers.sort((x, y) => x.at - y.at);
            const t = timers.shift()!;
            now = Math.max(now, t.at);
            t.resolve();
          }
          await done;
          expect(starts).toHaveLength(50);
          expect(maxInOneSecond(starts)).toBeLessThanOrEqual(N);
          expect(maxInOneSecond(starts.map((t, i) => t + transit[i]))).toBeLessThanOrEqual(N);
          // The next batch's line, resuming where the gate says, keeps the rule against these sends.
          const resume = gate.resumeAt!;
          const nextLine = Array.from({ length: N }, (_, j) => resume + j * slotIntervalMs(N));
          expect(maxInOneSecond([...starts, ...nextLine])).toBeLessThanOrEqual(N);
        },
      ),
      { numRuns: 40 },
    );
  });
});
