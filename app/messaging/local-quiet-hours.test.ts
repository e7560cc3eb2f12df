// The local outbox's quiet-hours switch (issue 24, item 15): a newcomer trying Helio at night can let marketing texts
// go to the local outbox; with a real SMS provider the switch changes nothing, and the Message Center explains why
// texts wait.
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createTestUser, db } from "../../tests/factories";
import { createTestContact, uniquePhone } from "../../tests/contact-factory";
import { messageRow, pipeline, queueMessage } from "../../tests/messaging-harness";
import { sendMessages } from "./consume-send-batch.server";
import { setLocalIgnoreQuietHours } from "./org-settings.server";
import { createOutboxSms } from "./providers/outbox.server";
import { isWithinSendWindow, QUIET_HOURS_NOTE, quietZonesNow, stateForRules } from "./quiet-hours";

// 23:30 in New York, 21:30 in Denver, 20:30 in Los Angeles.
const NIGHT_NY = new Date("2026-11-25T04:30:00Z");

async function nightBroadcast(
  deps: Awaited<ReturnType<typeof pipeline>>["deps"],
  queue: Awaited<ReturnType<typeof pipeline>>["queue"],
) {
  const user = await createTestUser();
  const c = await createTestContact(user.id, { zipCode: "10001", state: "NY" });
  const id = await queueMessage(
    deps,
    queue,
    { kind: "broadcast", contactId: c.id, phone: c.phone, content: "Solar savings!" },
    NIGHT_NY,
  );
  return id;
}

// New York has no rule of its own: the federal one held it, and the note says so (decision 060).
const HELD_BY_FEDERAL_RULE = `${QUIET_HOURS_NOTE} (Federal (TCPA): 47 CFR 64.1200(c)(1))`;

describe("quiet hours in local mode", () => {
  afterEach(() => setLocalIgnoreQuietHours(db(), false, QUIET_HOURS_NOTE, new Date()));

  it("defers a marketing text at night, and sends it locally once the switch is on (the deferred one is due at once)", async () => {
    const { deps, queue } = await pipeline({ clock: () => NIGHT_NY });
    const local = { ...deps, sms: createOutboxSms(deps.db, { clock: () => NIGHT_NY }) };
    const id = await nightBroadcast(local, queue);
    await sendMessages(queue.takeSendJobs(), local);
    expect(await messageRow(id)).toMatchObject({ status: "pending", error_message: HELD_BY_FEDERAL_RULE });

    await setLocalIgnoreQuietHours(db(), true, QUIET_HOURS_NOTE, NIGHT_NY);
    expect((await messageRow(id))?.scheduled_at).toBe(NIGHT_NY.getTime());
    await db().run(sql`UPDATE messages SET status = 'queued' WHERE id = ${id}`); // what the cron tick's dispatch does
    await sendMessages([{ v: 1, type: "send", messageId: id }], local);
    expect((await messageRow(id))?.status).toBe("sent");
  });

  it("changes nothing with a real SMS provider (Twilio)", async () => {
    const { deps, queue, twilio } = await pipeline({ clock: () => NIGHT_NY });
    await setLocalIgnoreQuietHours(db(), true, QUIET_HOURS_NOTE, NIGHT_NY);
    const id = await nightBroadcast(deps, queue);
    await sendMessages(queue.takeSendJobs(), deps);
    expect(await messageRow(id)).toMatchObject({ status: "pending", error_message: HELD_BY_FEDERAL_RULE });
    expect(await twilio.calls()).toHaveLength(0);
  });

  it("says where in the US it is quiet hours now", () => {
    expect(quietZonesNow(NIGHT_NY).map((z) => z.label)).toEqual(["New York", "Chicago", "Denver"]); // 21:30 in Denver, 20:30 in Los Angeles
    expect(quietZonesNow(NIGHT_NY)[0].localTime).toBe("11:30 PM");
    expect(quietZonesNow(new Date("2026-11-18T18:30:00Z"))).toEqual([]);
  });
});

describe("the calling window at each text's paced slot", () => {
  it("a marketing text whose slot falls past 21:00 in the contact's zone waits for 08:00, never goes late", async () => {
    // 20:59:50 in Phoenix (no DST; the federal 08:00–21:00): at one text a second, the batch's slots run to 21:00:09.
    const t = new Date("2026-11-19T03:59:50Z");
    const { deps, queue, twilio } = await pipeline({ clock: () => t, config: { smsRatePerSecond: 1 } });
    const user = await createTestUser();
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) {
      const c = await createTestContact(user.id, { state: "AZ", phone: uniquePhone(["602"]) });
      ids.push(
        (await queueMessage(
          deps,
          queue,
          { kind: "broadcast", contactId: c.id, phone: c.phone, content: `Offer ${i}` },
          t,
        ))!,
      );
    }
    // The slots are honoured on the consumer's clock without waiting in real time.
    await sendMessages(queue.takeSendJobs(), { ...deps, sleep: async () => {} });
    const rows = await db().all<{
      content: string;
      status: string;
      scheduled_at: number;
      error_message: string | null;
    }>(
      sql`SELECT content, status, scheduled_at, error_message FROM messages WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) ORDER BY id`,
    );
    // Slots 20:59:50 … 20:59:54 start at least 5 s before the close; the others wait for the next morning's 08:00 MST.
    expect(rows.map((r) => r.status)).toEqual([...Array(5).fill("sent"), ...Array(5).fill("pending")]);
    for (const r of rows.slice(5)) {
      expect(new Date(r.scheduled_at).toISOString()).toBe("2026-11-19T15:00:00.000Z");
      expect(r.error_message).toBe(`${QUIET_HOURS_NOTE} (Federal (TCPA): 47 CFR 64.1200(c)(1))`);
    }
    // The consumer sends a batch's texts concurrently: the fake Twilio may take them in any order.
    const sent = (await twilio.calls()).map((c) => c.body).sort();
    expect(sent).toEqual(["Offer 0", "Offer 1", "Offer 2", "Offer 3", "Offer 4"]);
  });
});

describe("no marketing text is ever sent outside its contact's window (property, through the consumer)", () => {
  // Contacts placed in states with their own rules (and none: every rule at once), at instants near their windows'
  // edges: whatever the consumer sends is inside the window when it goes; whatever it holds waits for the next opening.
  const places = [
    { state: "TX", zipCode: "75201", phone: ["214"] },
    { state: "RI", zipCode: "02903", phone: ["401"] },
    { state: "FL", zipCode: "33101", phone: ["305"] },
    { state: "CA", zipCode: "90012", phone: ["213"] },
    { state: "AL", zipCode: "35203", phone: ["205"] },
    { state: null, zipCode: null, phone: ["212"] },
  ] as const;

  it("sent ⇒ inside the window at the batch and at its slot; held ⇒ due at the next opening", async () => {
    const user = await createTestUser();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...places),
        // A day of a fortnight with a Sunday and Thanksgiving, at a quarter hour ± 10 s of a whole hour.
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 95 }),
        fc.integer({ min: -10, max: 10 }),
        async (place, day, quarter, seconds) => {
          const t = new Date(Date.UTC(2026, 10, 20 + day) + quarter * 15 * 60_000 + seconds * 1000);
          // A sender of its own each run: the instants jump back and forth, and a sender's pacing only moves forward.
          const { deps, queue, twilio } = await pipeline({ config: { smsRatePerSecond: 1000 } });
          const c = await createTestContact(user.id, {
            state: place.state ?? undefined,
            zipCode: place.zipCode ?? undefined,
            phone: uniquePhone(place.phone),
          });
          const id = (await queueMessage(
            deps,
            queue,
            { kind: "broadcast", contactId: c.id, phone: c.phone, content: `p${c.id}` },
            t,
          ))!;
          await sendMessages(queue.takeSendJobs(), { ...deps, clock: () => t, sleep: async () => {} });
          const row = (await messageRow(id))!;
          const rules = stateForRules(c.state, c.zipCode);
          const sent = (await twilio.calls()).some((call) => call.body === `p${c.id}`);
          const label = `${rules} ${c.timeZone} ${t.toISOString()} ${row.status} ${row.error_message}`;
          if (row.status === "sent") {
            expect(sent, label).toBe(true);
            expect(isWithinSendWindow(t, c.timeZone, rules), label).toBe(true);
            expect(isWithinSendWindow(new Date(t.getTime() + 5_000), c.timeZone, rules), label).toBe(true);
          } else {
            expect(row.status, label).toBe("pending");
            expect(sent, label).toBe(false);
            expect(row.scheduled_at, label).toBeGreaterThan(t.getTime());
            expect(isWithinSendWindow(new Date(row.scheduled_at), c.timeZone, rules), label).toBe(true);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
