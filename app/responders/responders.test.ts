import { sql } from "drizzle-orm";
import { replyWorld, respondersMadeHere } from "../../tests/reply-world";
import { describe, expect, it } from "vitest";
import { DEFAULT_CAP_LIMITS } from "~/caps/caps";
import { enqueueDueMessages } from "~/messaging/enqueue-due-messages.server";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { db } from "../../tests/factories";
import { runInboundJob } from "../../tests/messaging-harness";
import { updateResponder } from "./update-responder.server";
import { isBusinessHours, matchKeywords, timeAllows } from "./match";
import { parseResponder, RESPONDER_REQUIRED } from "./responder-schema";

const MIN = 60_000;
/** Wednesday 18:30 UTC: 11:30 in Phoenix, daytime across the continental US. */
const DAY = new Date("2026-11-18T18:30:00Z");
/** Wednesday 06:00 UTC: 23:00 in Phoenix — quiet hours. */
const NIGHT = new Date("2026-11-18T06:00:00Z");

const responder = respondersMadeHere(DAY);

function world(now: Date) {
  return replyWorld(now, {
    replies: {
      // These tests are about the engine's own rules; the caps (1 reply per 12 h…) have their own tests (caps.test.ts).
      capLimits: async () => ({
        ...DEFAULT_CAP_LIMITS,
        autoReplyPerResponder: 50,
        autoReplyPerNumberDay: 100,
        alertEmailPerConversation: 60,
      }),
    },
  });
}

const autoRows = (phone: string) =>
  db().all<{
    id: number;
    kind: string;
    status: string;
    content: string;
    scheduled_at: number;
    idempotency_key: string;
    email: string | null;
    error_message: string | null;
  }>(sql`
    SELECT id, kind, status, content, scheduled_at, idempotency_key, email, error_message FROM messages
    WHERE (phone = ${phone} AND kind IN ('auto_reply', 'auto_followup')) OR (kind = 'alert' AND content LIKE ${"%" + phone + "%"}) ORDER BY id`);

describe("keyword matching", () => {
  it("matches whole words in any case, punctuation ignored", () => {
    expect(matchKeywords("Interested in SOLAR!!!", ["solar"])).toEqual(["solar"]);
    expect(matchKeywords("solar, please.", ["Solar"])).toEqual(["Solar"]);
    expect(matchKeywords("How much does it cost?", ["how much", "price"])).toEqual(["how much"]);
    expect(matchKeywords("what's the price-tag", ["price"])).toEqual(["price"]);
    expect(matchKeywords("Solaris is a film", ["solar"])).toEqual([]);
    expect(matchKeywords("pricey", ["price"])).toEqual([]);
    expect(matchKeywords("howmuch", ["how much"])).toEqual([]);
    expect(matchKeywords("anything", [" ", ""])).toEqual([]);
  });

  it("a keyword just after a negation is not a match; a negative keyword still is (issue 24)", () => {
    expect(matchKeywords("not interested, I rent", ["interested"])).toEqual([]);
    expect(matchKeywords("Not really interested", ["interested"])).toEqual([]);
    expect(matchKeywords("I don't want solar", ["want solar"])).toEqual([]);
    expect(matchKeywords("not interested, I rent", ["not interested", "interested"])).toEqual(["not interested"]);
    // Out of reach, or a later plain mention: a match.
    expect(matchKeywords("No worries at all, very interested", ["interested"])).toEqual(["interested"]);
    expect(matchKeywords("not now, but interested later", ["interested"])).toEqual(["interested"]);
    expect(matchKeywords("not sure, not interested… actually yes interested", ["interested"])).toEqual(["interested"]);
  });
});

describe("business hours in the responder's time zone", () => {
  it("a Wednesday 16:30 UTC is business hours in New York but not yet in Los Angeles", () => {
    const at = new Date("2026-11-18T16:30:00Z"); // 11:30 EST, 08:30 PST
    expect(isBusinessHours(at, "America/New_York")).toBe(true);
    expect(isBusinessHours(at, "America/Los_Angeles")).toBe(false);
    expect(timeAllows("after_hours", at, "America/Los_Angeles")).toBe(true);
  });
  it("evening and weekends", () => {
    const fri = new Date("2026-11-21T00:30:00Z"); // Fri 16:30 PST, Fri 19:30 EST
    expect(isBusinessHours(fri, "America/Los_Angeles")).toBe(true);
    expect(isBusinessHours(fri, "America/New_York")).toBe(false);
    const sat = new Date("2026-11-21T18:00:00Z");
    expect(timeAllows("weekends", sat, "America/Chicago")).toBe(true);
    expect(timeAllows("weekends", fri, "America/Los_Angeles")).toBe(false);
    expect(timeAllows("weekends", fri, "America/Denver")).toBe(false);
    expect(isBusinessHours(sat, "America/Denver")).toBe(false);
  });
});

describe("responder validation", () => {
  it("requires name, keywords and primary response; trims and de-duplicates; enforces the limits", () => {
    expect(() => parseResponder({ name: "x", keywords: [], responses: { primary: "hi" } })).toThrow(RESPONDER_REQUIRED);
    expect(() => parseResponder({ name: "x", keywords: ["a"], responses: { primary: " " } })).toThrow(
      RESPONDER_REQUIRED,
    );
    // API clients send previousInteractions as a count (issue 24): 0 = no condition, 1 or more = returning texters.
    const counted = { name: "x", keywords: ["a"], responses: { primary: "hi" } };
    expect(
      parseResponder({ ...counted, conditions: { previousInteractions: 0 } }).conditions.previousInteractions,
    ).toBe("any");
    expect(
      parseResponder({ ...counted, conditions: { previousInteractions: 3 } }).conditions.previousInteractions,
    ).toBe("returning");
    expect(
      parseResponder({ ...counted, conditions: { previousInteractions: "first_contact" } }).conditions
        .previousInteractions,
    ).toBe("first_contact");
    expect(() => parseResponder({ ...counted, conditions: { previousInteractions: -1 } })).toThrow();
    // An auto-reply is a text: a public shortener in any of its responses is refused (issue 29).
    expect(() => parseResponder({ ...counted, responses: { primary: "hi", followUp: "see bit.ly/x" } })).toThrow(
      "Links through bit.ly are filtered by carriers",
    );
    const r = parseResponder({
      name: " x ",
      keywords: [" solar ", "Solar", "", "price"],
      responses: { primary: "hi" },
      escalation: { alertEmails: [" a@b.co ", "a@b.co"] },
    });
    expect(r.keywords).toEqual(["solar", "price"]);
    expect(r.escalation.alertEmails).toEqual(["a@b.co"]);
    expect(r).toMatchObject({
      category: "solar_inquiry",
      triggerType: "keyword_match",
      conditions: { sentiment: "any", confidence: 70, timeOfDay: "any" },
    });
    expect(r.aiSettings).toMatchObject({ responseStyle: "professional", maxLength: 160 });
    expect(r.escalation).toMatchObject({ enabled: true, threshold: 3, delay: 30 });
    expect(r.scheduling).toMatchObject({
      timezone: "America/Los_Angeles",
      delays: { immediate: 0, followUp: 5, escalation: 30 },
    });
    const base = { name: "x", keywords: ["a"], responses: { primary: "hi" } };
    expect(() => parseResponder({ ...base, conditions: { confidence: 101 } })).toThrow(/between 0 and 100/);
    expect(() => parseResponder({ ...base, aiSettings: { maxLength: 49 } })).toThrow(/between 50 and 500/);
    expect(() => parseResponder({ ...base, escalation: { threshold: 11 } })).toThrow(/between 1 and 10/);
    expect(() => parseResponder({ ...base, escalation: { delay: 1441 } })).toThrow(/between 0 and 1440/);
    expect(() => parseResponder({ ...base, scheduling: { delays: { immediate: 61 } } })).toThrow(/between 0 and 60/);
    expect(() => parseResponder({ ...base, scheduling: { delays: { followUp: 0 } } })).toThrow(/between 1 and 1440/);
    expect(() => parseResponder({ ...base, triggerType: "magic" })).toThrow();
  });
});

describe("the responder engine", () => {
  it("answers a matching reply after the immediate delay and follows up after the follow-up delay, through the queue", async () => {
    const w = await world(DAY);
    const { r, word } = await responder({ scheduling: { delays: { immediate: 20, followUp: 10 } } });
    await w.inbound(`Hi, ${word.toUpperCase()}?`, DAY);
    const rows = await autoRows(w.contact.phone);
    expect(rows.map((m) => [m.kind, m.status, m.scheduled_at])).toEqual([
      ["auto_reply", "pending", DAY.getTime() + 20_000],
      ["auto_followup", "pending", DAY.getTime() + 10 * MIN],
    ]);
    expect(rows[0].idempotency_key).toMatch(new RegExp(`^auto:\\d+:${r.id}:primary$`));
    // Not due yet: nothing is queued.
    expect(w.queue.takeSendJobs()).toEqual([]);
    // The cron's pass over these rows, `ms` after DAY.
    const enqueueAt = (ms: number) =>
      enqueueDueMessages(
        w.deps.db,
        w.queue,
        new Date(DAY.getTime() + ms),
        rows.map((m) => m.id),
      );
    await enqueueAt(19_000);
    expect(w.queue.takeSendJobs()).toEqual([]);
    await enqueueAt(20_000);
    const first = w.queue.takeSendJobs();
    expect(first).toEqual([{ v: 2, type: "send", messageIds: [rows[0].id] }]);
    await sendMessages(first, { ...w.deps, clock: () => new Date(DAY.getTime() + 20_000) });
    await enqueueDueMessages(w.deps.db, w.queue, new Date(DAY.getTime() + 10 * MIN), [rows[1].id]);
    const second = w.queue.takeSendJobs();
    await sendMessages(second, { ...w.deps, clock: () => new Date(DAY.getTime() + 10 * MIN) });
    expect((await w.twilio.calls()).map((c) => [c.to, c.body])).toEqual([
      [w.contact.phone, `Thanks! (${word})`],
      [w.contact.phone, `Any questions? (${word})`],
    ]);
    const count = await db().get<{ n: number }>(
      sql`SELECT response_count AS n FROM auto_responders WHERE id = ${r.id}`,
    );
    expect(count!.n).toBe(1);
  });

  it("quiet hours hold the follow-up but not the auto-reply", async () => {
    const w = await world(NIGHT);
    const { word } = await responder({ scheduling: { delays: { immediate: 0, followUp: 1 } } });
    await w.inbound(word, NIGHT);
    const later = new Date(NIGHT.getTime() + MIN);
    const rows = await autoRows(w.contact.phone);
    await enqueueDueMessages(
      w.deps.db,
      w.queue,
      later,
      rows.map((m) => m.id),
    );
    await sendMessages(w.queue.takeSendJobs(), { ...w.deps, clock: () => later });
    expect((await w.twilio.calls()).map((c) => c.body)).toEqual([`Thanks! (${word})`]);
    const after = await autoRows(w.contact.phone);
    expect(after.map((m) => [m.kind, m.status])).toEqual([
      ["auto_reply", "sent"],
      ["auto_followup", "pending"],
    ]);
    expect(after[1].scheduled_at).toBeGreaterThan(later.getTime()); // deferred to the morning, not dropped
  });

  it("a replayed webhook and a redelivered job answer exactly once", async () => {
    const w = await world(DAY);
    const { r, word } = await responder();
    const first = await w.inbound(`${word} please`, DAY);
    const replay = await receiveInboundSms(
      w.deps.db,
      w.queue,
      { sid: first.sid, from: w.contact.phone, to: "+16025550100", body: `${word} please` },
      DAY,
    );
    expect(replay.duplicate).toBe(true);
    await runInboundJob(w.deps.db, [first.messageId!], DAY, w.replies); // the job delivered twice
    await runInboundJob(w.deps.db, [first.messageId!], new Date(DAY.getTime() + MIN), w.replies);
    const rows = await autoRows(w.contact.phone);
    expect(rows.map((m) => [m.kind, m.status])).toEqual([
      ["auto_reply", "queued"], // no immediate delay: queued at once
      ["auto_followup", "pending"],
    ]);
    expect(
      (await db().get<{ n: number }>(sql`SELECT response_count AS n FROM auto_responders WHERE id = ${r.id}`))!.n,
    ).toBe(1);
  });

  it("never auto-answers STOP, START or HELP, even with a responder on that word", async () => {
    const w = await world(DAY);
    const { r } = await responder({ keywords: ["stop", "help", "start", "unsubscribe"] });
    for (const body of ["STOP", "help", "Start", "unsubscribe"]) await w.inbound(body, DAY);
    const compliance = await db().all<{ kind: string }>(
      sql`SELECT kind FROM messages WHERE phone = ${w.contact.phone} AND direction = 'outbound'`,
    );
    expect(compliance.every((m) => m.kind === "compliance")).toBe(true);
    expect(compliance.length).toBeGreaterThan(0);
    expect(await db().all(sql`SELECT id FROM responder_triggers WHERE responder_id = ${r.id}`)).toEqual([]);
  });

  it("never auto-answers an opt-out-like text (the classifier's opt_out_like), even on a keyword", async () => {
    const w = await world(DAY);
    const { r, word } = await responder();
    await w.inbound(`please remove me from your ${word} list`, DAY);
    expect(await autoRows(w.contact.phone)).toEqual([]);
    expect(await db().all(sql`SELECT id FROM responder_triggers WHERE responder_id = ${r.id}`)).toEqual([]);
    const seen = await db().get<{ intent: string }>(
      sql`SELECT intent FROM ai_classifications WHERE text_preview LIKE ${"%" + word + "%"}`,
    );
    expect(seen?.intent).toBe("opt_out_like");
  });

  it("intent detection answers through the classifier; the confidence threshold holds", async () => {
    const w = await world(DAY);
    const { word } = await responder({
      triggerType: "intent_detection",
      category: "pricing_request",
      conditions: { confidence: 50 },
    });
    await w.inbound("How much would the panels cost me per month?", DAY);
    expect((await autoRows(w.contact.phone)).filter((m) => m.kind === "auto_reply").map((m) => m.content)).toEqual([
      `Thanks! (${word})`,
    ]);
    // The lexicon is at most 95% sure: a responder asking for 100% stays silent.
    const { r } = await responder({
      triggerType: "intent_detection",
      category: "pricing_request",
      conditions: { confidence: 100 },
    });
    await db().run(
      sql`UPDATE auto_responders SET is_active = 0 WHERE id <> ${r.id} AND id IN (SELECT value FROM json_each(${JSON.stringify(responder.created)}))`,
    );
    const w2 = await world(DAY);
    await w2.inbound("How much would the panels cost me per month?", DAY);
    expect(await autoRows(w2.contact.phone)).toEqual([]);
  });

  it("sentiment analysis answers only the chosen sentiment", async () => {
    const w = await world(DAY);
    const { word } = await responder({
      triggerType: "sentiment_analysis",
      conditions: { sentiment: "negative", confidence: 0 },
    });
    await w.inbound("great, thanks, sounds good", DAY);
    expect(await autoRows(w.contact.phone)).toEqual([]);
    await w.inbound("this is a scam and annoying, never", new Date(DAY.getTime() + MIN));
    expect((await autoRows(w.contact.phone)).filter((m) => m.kind === "auto_reply").map((m) => m.content)).toEqual([
      `Thanks! (${word})`,
    ]);
  });

  it("a new inbound from the contact cancels the pending follow-up; so does a person's reply", async () => {
    const w = await world(DAY);
    const { word } = await responder({ escalation: { enabled: false } });
    await w.inbound(word, DAY);
    await w.inbound("ok one more thing", new Date(DAY.getTime() + MIN));
    let rows = await autoRows(w.contact.phone);
    expect(rows.map((m) => [m.kind, m.status, m.error_message])).toEqual([
      ["auto_reply", "queued", null],
      ["auto_followup", "skipped", "Cancelled: the contact wrote again"],
    ]);
    // The next matching text gets a fresh follow-up; a person's reply then cancels it. (A different text: the same
    // one again within minutes reads as a machine to the loop guard.)
    await w.inbound(`${word}, still keen`, new Date(DAY.getTime() + 2 * MIN));
    rows = await autoRows(w.contact.phone);
    expect(rows.filter((m) => m.kind === "auto_followup").map((m) => m.status)).toEqual(["skipped", "pending"]);
    await w.personReplies("Hi Rosa, it's Sam", new Date(DAY.getTime() + 3 * MIN));
    rows = await autoRows(w.contact.phone);
    expect(rows.filter((m) => m.kind === "auto_followup").map((m) => [m.status, m.error_message])).toEqual([
      ["skipped", "Cancelled: the contact wrote again"],
      ["skipped", "Cancelled: a person replied"],
    ]);
  });

  it("escalates when the same contact reaches the threshold without a human reply, after the delay", async () => {
    const w = await world(DAY);
    const { r, word } = await responder({
      escalation: { enabled: true, threshold: 2, delay: 45, alertEmails: ["Lead@Helio.test", "lead@helio.test "] },
    });
    await w.inbound(word, DAY);
    expect((await autoRows(w.contact.phone)).filter((m) => m.kind === "alert")).toEqual([]);
    await w.inbound(`${word} again`, new Date(DAY.getTime() + MIN));
    const alerts = (await autoRows(w.contact.phone)).filter((m) => m.kind === "alert");
    expect(alerts.map((m) => [m.email, m.scheduled_at])).toEqual([["Lead@Helio.test", DAY.getTime() + MIN + 45 * MIN]]);
    expect(alerts[0].content).toContain(r.name);
    // A person replies: the count starts again.
    await w.personReplies("On it", new Date(DAY.getTime() + 2 * MIN));
    await w.inbound(`${word} 3`, new Date(DAY.getTime() + 3 * MIN));
    expect((await autoRows(w.contact.phone)).filter((m) => m.kind === "alert")).toHaveLength(1);
    await w.inbound(`${word} 4`, new Date(DAY.getTime() + 4 * MIN));
    expect((await autoRows(w.contact.phone)).filter((m) => m.kind === "alert")).toHaveLength(2);
  });

  it("checks conditions: time of day in the responder's zone and previous interactions", async () => {
    const w = await world(DAY);
    // 18:30 UTC Wednesday = 10:30 in LA (business hours): an after-hours responder stays silent.
    const { word } = await responder({
      conditions: { timeOfDay: "after_hours" },
      scheduling: { timezone: "America/Los_Angeles" },
    });
    await w.inbound(word, DAY);
    expect(await autoRows(w.contact.phone)).toEqual([]);
    // A first-contact responder does not answer someone who has written before.
    const { word: w2 } = await responder({ conditions: { previousInteractions: "first_contact" } });
    await w.inbound(w2, new Date(DAY.getTime() + MIN));
    expect(await autoRows(w.contact.phone)).toEqual([]);
    const { word: w3 } = await responder({ conditions: { previousInteractions: "returning" } });
    await w.inbound(w3, new Date(DAY.getTime() + 2 * MIN));
    expect((await autoRows(w.contact.phone)).map((m) => m.kind)).toContain("auto_reply");
  });

  it("an inactive responder never answers; PUT-style partial update flips it", async () => {
    const w = await world(DAY);
    const { r, word } = await responder();
    const off = await updateResponder(db(), r.id, { isActive: false }, DAY);
    expect(off).toMatchObject({ isActive: false, name: r.name, keywords: r.keywords });
    await w.inbound(word, DAY);
    expect(await autoRows(w.contact.phone)).toEqual([]);
  });
});
