// The loop guard on auto-replies (issue 23, decision 021) with the organisation's default caps, through the same
// inbound path the queue runs (receiveInboundSms, then processInboundMessages): a burst from one number, a text that
// reads like another system's auto-reply, the per-number daily cap across responders, and the counters and activity
// entries a capped event leaves.
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CAP_LIMITS } from "~/caps/caps";
import { readHeldToday } from "~/caps/record-held.server";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { createTestContact, uniqueTag } from "../../tests/contact-factory";
import { createTestUser, db } from "../../tests/factories";
import { pipeline, runInboundJob } from "../../tests/messaging-harness";
import { looksAutomated } from "./looks-automated";
import { createResponder } from "./create-responder.server";
import { parseResponder } from "./responder-schema";
import type { ReplyDeps } from "./reply-deps";
import { classifierFor } from "~/wiring/ai-chain.server";

const MIN = 60_000;
/** A Wednesday, daytime in the US; each test's numbers are its own, so the counters never meet another test's. */
const DAY = new Date("2026-11-18T18:30:00Z");

const created: number[] = [];
afterEach(async () => {
  if (created.length)
    await db().run(
      sql`UPDATE auto_responders SET is_active = 0 WHERE id IN (SELECT value FROM json_each(${JSON.stringify(created.splice(0))}))`,
    );
});

async function responder(overrides: Record<string, unknown> = {}) {
  const word = uniqueTag("kw");
  const r = await createResponder(
    db(),
    parseResponder({
      name: `R ${word}`,
      keywords: [word],
      responses: { primary: `Thanks! (${word})`, followUp: `Any questions? (${word})` },
      ...overrides,
    }),
    DAY,
  );
  created.push(r.id);
  return { r, word };
}

async function world() {
  const p = await pipeline({ clock: () => DAY });
  const user = await createTestUser();
  const contact = await createTestContact(user.id, { firstName: "Rosa", state: "AZ" });
  // No capLimits: the caps come from org_settings, i.e. the defaults (no test writes cap settings).
  const replies: Omit<ReplyDeps, "db" | "now"> = {
    queue: p.queue,
    config: { publicBaseUrl: "https://helio.test", salesAlertEmail: "sales@helio.test" },
    classify: classifierFor({}, db()),
  };
  async function inbound(body: string, at: Date) {
    const res = await receiveInboundSms(
      p.deps.db,
      p.queue,
      { sid: "SM" + crypto.randomUUID().replace(/-/g, ""), from: contact.phone, to: "+16025550100", body },
      at,
    );
    p.queue.sent.splice(0);
    if (res.messageId) await runInboundJob(p.deps.db, [res.messageId], at, replies);
  }
  const outbound = (kind: string) =>
    db().all<{ content: string; email: string | null }>(sql`
      SELECT content, email FROM messages WHERE kind = ${kind} AND (phone = ${contact.phone} OR (kind = 'alert' AND content LIKE ${"%" + contact.phone + "%"})) ORDER BY id`);
  const heldFor = async (what: string) =>
    (
      await db().get<{ hits: number }>(
        sql`SELECT hits FROM cap_counters WHERE channel = ${"held:" + what} AND subject = ${contact.phone}`,
      )
    )?.hits ?? 0;
  const activity = (action: string) =>
    db().all<{ details: string }>(
      sql`SELECT details FROM activity_log WHERE action = ${action} AND json_extract(details, '$.subject') = ${contact.phone}`,
    );
  return { contact, inbound, outbound, heldFor, activity };
}

describe("looksAutomated", () => {
  it.each([
    "Auto-reply: I am out of the office until Monday.",
    "This is an automated message, please do not reply.",
    "I'm driving right now - I'll get back to you when I arrive.",
    "Thanks for your message! We will get back to you shortly.",
    "Away from my phone, text later",
    "Msg & data rates may apply. Reply STOP to unsubscribe.",
    "DO NOT REPLY to this number",
  ])("%s → reads as an auto-reply", (text) => expect(looksAutomated(text)).toBe(true));
  it.each([
    "Yes, I'm interested in solar",
    "How much would panels cost?",
    "Can you call me tomorrow after 3pm?",
    "I'm away next week but interested",
  ])("%s → a person", (text) => expect(looksAutomated(text)).toBe(false));
});

describe("the loop guard (default caps)", () => {
  it("a burst of 20 keyword texts from one number gets 1 auto-reply and 1 escalation email; the rest is counted and logged once", async () => {
    const w = await world();
    const { word } = await responder(); // escalation on, threshold 3 (the defaults)
    for (let i = 0; i < 20; i++) await w.inbound(`${word} question number ${i}`, new Date(DAY.getTime() + i * 1000));
    expect((await w.outbound("auto_reply")).map((m) => m.content)).toEqual([`Thanks! (${word})`]);
    expect(await w.outbound("auto_followup")).toHaveLength(1);
    // Escalations came due at the 3rd, 6th, … text; one email per conversation per hour goes.
    expect((await w.outbound("alert")).filter((m) => m.email === "sales@helio.test")).toHaveLength(1);
    expect(await w.heldFor("auto_reply")).toBe(19);
    expect(await w.heldFor("alert_email")).toBe(5);
    // One activity entry per number and day for each kind, not one per text.
    const entries = await w.activity("held_auto_reply");
    expect(entries).toHaveLength(1);
    expect(JSON.parse(entries[0].details)).toMatchObject({
      reason: `over ${DEFAULT_CAP_LIMITS.autoReplyPerResponder} per 12 hours from this responder`,
    });
    expect(await w.activity("held_alert_email")).toHaveLength(1);
    // The next day's window is 12 h later: one more answer then.
    await w.inbound(`${word} next day`, new Date(DAY.getTime() + 12 * 60 * MIN));
    expect(await w.outbound("auto_reply")).toHaveLength(2);
  });

  it("never auto-answers a text that reads like an auto-reply, nor the same text again within minutes", async () => {
    const w = await world();
    const { word } = await responder({ escalation: { enabled: false } });
    await w.inbound(`Auto-reply: I'm driving. ${word}`, DAY);
    expect(await w.outbound("auto_reply")).toEqual([]);
    expect(JSON.parse((await w.activity("held_auto_reply"))[0].details)).toMatchObject({ reason: "looks automated" });
    // A person's first text is answered; the same text again 2 minutes later (a bot answering the answer) is not.
    const other = await world();
    const { word: w2 } = await responder({ escalation: { enabled: false } });
    await other.inbound(`${w2}`, DAY);
    await other.inbound(`${w2.toUpperCase()}!`, new Date(DAY.getTime() + 2 * MIN));
    expect(await other.outbound("auto_reply")).toHaveLength(1);
    expect(await other.heldFor("auto_reply")).toBe(1);
    expect(JSON.parse((await other.activity("held_auto_reply"))[0].details)).toMatchObject({ reason: "repeated text" });
  });

  it("one number gets at most 3 auto-replies a day across responders", async () => {
    const w = await world();
    const words = [];
    for (let i = 0; i < 4; i++)
      words.push((await responder({ escalation: { enabled: false }, responses: { primary: `Answer ${i}` } })).word);
    for (const [i, word] of words.entries()) await w.inbound(`about ${word}`, new Date(DAY.getTime() + i * MIN));
    expect((await w.outbound("auto_reply")).map((m) => m.content)).toEqual(["Answer 0", "Answer 1", "Answer 2"]);
    expect(JSON.parse((await w.activity("held_auto_reply"))[0].details)).toMatchObject({
      reason: "over 3 auto-replies today",
    });
  });

  it("the Auto Responder screen's figure is the organisation's tally for today", async () => {
    const before = (await readHeldToday(db(), ["auto_reply"], DAY)).auto_reply;
    const w = await world();
    const { word } = await responder({ escalation: { enabled: false } });
    await w.inbound(`${word} one`, DAY);
    await w.inbound(`${word} two`, new Date(DAY.getTime() + MIN));
    expect((await readHeldToday(db(), ["auto_reply"], DAY)).auto_reply).toBeGreaterThanOrEqual(before + 1);
  });
});
