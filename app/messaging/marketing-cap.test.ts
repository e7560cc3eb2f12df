// Florida's and Oklahoma's 3 marketing texts per 24 hours (issue 29 item 1): the send consumer defers the fourth
// until the oldest of the three is 24 hours old (and the state's window is open), never drops it; other states, and
// texts that are not marketing, are not counted.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestUser, db } from "../../tests/factories";
import { createTestContact } from "../../tests/contact-factory";
import { plan } from "../../tests/query-plan";
import { appHooks, messageRow, pipeline, queueMessage } from "../../tests/messaging-harness";
import { selectRecentMarketing, sendMessages } from "./consume-send-batch.server";
import { CAP_WINDOW_MS, CAPPED_KINDS, capNote, nextUnderCap } from "./marketing-cap";
import { STATE_RULES } from "./state-rules";

const HOUR = 60 * 60 * 1000;
// 11:00 in Miami, Oklahoma City 10:00, Austin 10:00: inside every window.
const NOON_EAST = new Date("2026-11-18T16:00:00Z");
const FL = STATE_RULES.find((r) => r.state === "FL")!;

describe("nextUnderCap", () => {
  const now = 100 * HOUR;
  it.each([
    ["none sent", [], now],
    ["two in the window", [now - 2 * HOUR, now - HOUR], now],
    ["three, the oldest 23 h ago", [now - HOUR, now - 23 * HOUR, now - 2 * HOUR], now + HOUR],
    ["three, one of them 25 h ago (out of the window)", [now - HOUR, now - 25 * HOUR, now - 2 * HOUR], now],
    [
      "five: the third newest decides",
      [now - 1, now - 2, now - 3 * HOUR, now - 10 * HOUR, now - 20 * HOUR],
      now + 21 * HOUR,
    ],
  ])("%s", (_, sent, expected) => {
    expect(nextUnderCap(sent as number[], 3, now)).toBe(expected);
  });
});

async function sentMarketing(contactId: number, phone: string, at: Date) {
  await db().run(sql`INSERT INTO messages (channel, direction, status, contact_id, phone, content, idempotency_key,
    is_marketing, kind, sent_at, created_at, updated_at)
    VALUES ('sms', 'outbound', 'delivered', ${contactId}, ${phone}, 'Earlier offer', ${crypto.randomUUID()}, 1,
    'broadcast', ${at.getTime()}, ${at.getTime()}, ${at.getTime()})`);
}

/** The contact's time zone comes from its ZIP, as on import. */
async function contactIn(state: string, zipCode: string) {
  const user = await createTestUser();
  return createTestContact(user.id, { state, zipCode });
}

describe("the Florida/Oklahoma cap in the send consumer", () => {
  /** A contact in `state` sent capped texts at `sentAts`; then one more broadcast through the consumer at NOON_EAST. */
  async function oneMore(state: string, zipCode: string, sentAts: Date[]) {
    const run = await pipeline({ clock: () => NOON_EAST });
    const c = await contactIn(state, zipCode);
    for (const at of sentAts) await sentMarketing(c.id, c.phone, at);
    const id = await queueMessage(run.deps, run.queue, {
      kind: "broadcast",
      contactId: c.id,
      phone: c.phone,
      content: "Offer",
    });
    await sendMessages(run.queue.takeSendJobs(), run.deps);
    return { ...run, id, row: await messageRow(id) };
  }
  const ago = (hours: number) => new Date(NOON_EAST.getTime() - hours * HOUR);

  it("defers a Florida contact's 4th marketing text in 24 hours to when the oldest turns 24 hours old", async () => {
    const oldest = ago(20); // 15:00 the day before, Miami time
    const { id, row, twilio } = await oneMore("FL", "33101", [oldest, ago(5), ago(1)]);
    expect(row).toMatchObject({ status: "pending", error_message: capNote(FL) });
    expect(row?.error_message).toBe(
      "Deferred: Florida allows 3 marketing texts to one number per 24 hours (Fla. Stat. §501.059(8)(a))",
    );
    expect(row?.scheduled_at).toBe(oldest.getTime() + CAP_WINDOW_MS); // 15:00 Miami: inside 08:00–20:00
    expect(await twilio.calls()).toHaveLength(0);

    // Due again: the cron's dispatch queues it, and past the window it goes.
    const later = new Date(oldest.getTime() + CAP_WINDOW_MS);
    const again = await pipeline({ clock: () => later });
    await db().run(sql`UPDATE messages SET status = 'queued' WHERE id = ${id}`);
    await sendMessages([{ v: 1, type: "send", messageId: id }], again.deps);
    expect((await messageRow(id))?.status).toBe("sent");
  });

  it("a deferral that lands outside the state's window moves on to the next morning", async () => {
    // The oldest went at 20:30 Oklahoma time the day before (the federal window was still open): 24 hours on is past
    // Oklahoma's 20:00, so the text waits for 08:00 the morning after.
    const { row } = await oneMore("OK", "73102", [new Date("2026-11-18T02:30:00Z"), ago(2), ago(1)]);
    expect(row?.status).toBe("pending");
    expect(row?.error_message).toMatch(/^Deferred: Oklahoma allows 3 marketing texts/);
    expect(row?.scheduled_at).toBe(new Date("2026-11-19T14:00:00Z").getTime()); // 08:00 CST on the 19th
  });

  it("counts the batch's own texts: four broadcasts to one Florida number in one batch, the fourth waits", async () => {
    const { deps, queue, twilio } = await pipeline({ clock: () => NOON_EAST });
    const c = await contactIn("FL", "33101");
    const ids = [];
    for (let i = 0; i < 4; i++)
      ids.push(
        await queueMessage(deps, queue, { kind: "broadcast", contactId: c.id, phone: c.phone, content: `Offer ${i}` }),
      );
    await sendMessages(queue.takeSendJobs(), deps);
    const statuses = await Promise.all(ids.map(async (id) => (await messageRow(id))?.status));
    expect(statuses.filter((s) => s === "sent")).toHaveLength(3);
    expect(statuses.filter((s) => s === "pending")).toHaveLength(1);
    expect(await twilio.calls()).toHaveLength(3);
  });

  it("does not count or hold a rep's own texts or an appointment's, nor texts to a state without the cap", async () => {
    const { deps, queue, twilio } = await pipeline({ clock: () => NOON_EAST });
    const fl = await contactIn("FL", "33101");
    const tx = await contactIn("TX", "73301");
    for (const c of [fl, tx])
      for (const h of [1, 2, 3]) await sentMarketing(c.id, c.phone, new Date(NOON_EAST.getTime() - h * HOUR));
    const reminder = await queueMessage(deps, queue, {
      kind: "appointment",
      contactId: fl.id,
      phone: fl.phone,
      content: "See you at 3",
    });
    const reply = await queueMessage(
      deps,
      queue,
      { kind: "individual", contactId: fl.id, phone: fl.phone, content: "Hi" },
      NOON_EAST,
      appHooks,
    );
    const texas = await queueMessage(deps, queue, {
      kind: "broadcast",
      contactId: tx.id,
      phone: tx.phone,
      content: "Offer",
    });
    await sendMessages(queue.takeSendJobs(), deps);
    expect((await messageRow(reply))?.status).toBe("sent");
    expect((await messageRow(reminder))?.status).toBe("sent");
    expect((await messageRow(texas))?.status).toBe("sent");
    expect(await twilio.calls()).toHaveLength(3);
  });

  it("reads only each number's recent capped texts, by messages_capped_sent_idx — never its history or the table", async () => {
    const p = await plan(selectRecentMarketing(db(), [1, 2, 3], 0).getSQL());
    expect(p).toMatch(/SEARCH messages USING INDEX messages_capped_sent_idx \(phone=\? AND sent_at>\?\)/);
    expect(p).not.toMatch(/SCAN (messages|q|c)\b/);
  });

  it("the index counts exactly the kinds the cap holds", async () => {
    const index = await db().get<{ sql: string }>(
      sql`SELECT sql FROM sqlite_master WHERE name = 'messages_capped_sent_idx'`,
    );
    const kinds = [...index!.sql.matchAll(/'([a-z_]+)'/g)]
      .map((m) => m[1])
      .filter((k) => !["outbound", "sms"].includes(k));
    expect(kinds.sort()).toEqual([...CAPPED_KINDS].sort());
  });
});
