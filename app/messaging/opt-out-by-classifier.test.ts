// Issue 24, item 1 (second half): the reply classifier as the second opinion on an opt-out the keyword rules missed,
// against the fake OpenAI-compatible server on loopback (the model's answer is queued there; nothing of ours mocked).
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEFAULT_CAP_LIMITS } from "~/caps/caps";
import { classifierFor } from "~/wiring/ai-chain.server";
import type { ReplyDeps } from "~/responders/reply-deps";
import { createTestContact, uniqueTag } from "../../tests/contact-factory";
import { fakeOpenAiBase, newFakeOpenAiKey, openAiCalls, queueOpenAiAnswer } from "../../tests/fakes/control";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { DAYTIME, pipeline, queueMessage, runInboundJob } from "../../tests/messaging-harness";
import { receiveInboundSms } from "./receive-inbound.server";
import { listPlainWordsOptOuts, undoPlainWordsOptOut } from "./review-plain-opt-outs.server";

const envFor = (key: string) => ({ OPENAI_API_KEY: key, OPENAI_BASE_URL: fakeOpenAiBase(), OPENAI_MODEL: "gpt-test" });
const answer = (intent: string, confidence: number) => JSON.stringify({ intent, sentiment: "negative", confidence });

async function world() {
  const key = newFakeOpenAiKey();
  const p = await pipeline({ clock: () => DAYTIME });
  const user = await createTestUser();
  const contact = await createTestContact(user.id, { firstName: "Rosa", state: "AZ" });
  const replies: Omit<ReplyDeps, "db" | "now"> = {
    queue: p.queue,
    config: { publicBaseUrl: "https://helio.test", salesAlertEmail: null },
    classify: classifierFor(
      envFor(key),
      db(),
      () => DAYTIME,
      async () => DEFAULT_CAP_LIMITS,
    ),
  };
  const sid = () => "SM" + crypto.randomUUID().replace(/-/g, "");
  async function inbound(body: string, s = sid()) {
    const res = await receiveInboundSms(
      p.deps.db,
      p.queue,
      { sid: s, from: contact.phone, to: "+16025550100", body },
      DAYTIME,
    );
    p.queue.sent.splice(0);
    if (res.messageId) await runInboundJob(p.deps.db, [res.messageId], DAYTIME, replies);
    return { ...res, sid: s };
  }
  const contactRow = () =>
    db().get<{ opted_out_at: number | null; opted_out_source: string | null }>(
      sql`SELECT opted_out_at, opted_out_source FROM contacts WHERE id = ${contact.id}`,
    );
  const confirmations = () =>
    db().all<{ content: string }>(
      sql`SELECT content FROM messages WHERE kind = 'compliance' AND phone = ${contact.phone}`,
    );
  return { ...p, key, user, contact, replies, inbound, contactRow, confirmations };
}

describe("the classifier's second opinion on an opt-out (issue 24, item 1)", () => {
  it("a confident opt_out_like the keyword rules missed suppresses the number like STOP, once, and is listed for review and undo", async () => {
    const w = await world();
    const waiting = await queueMessage(
      { db: db() },
      w.queue,
      {
        kind: "campaign",
        phone: w.contact.phone,
        contactId: w.contact.id,
        content: "Hi Rosa",
        idempotencyKey: uniqueTag("w"),
        scheduledAt: new Date(DAYTIME.getTime() + 3600_000),
      },
      DAYTIME,
    );
    const words = "Please quit bugging me about panels, I'm done with this";
    await queueOpenAiAnswer(w.key, answer("opt_out_like", 96));
    const first = await w.inbound(words);
    expect(await openAiCalls(w.key)).toHaveLength(1);

    expect(await w.contactRow()).toMatchObject({ opted_out_source: "classifier" });
    expect((await w.contactRow())!.opted_out_at).not.toBeNull();
    expect(
      await db().get(
        sql`SELECT reason, source FROM suppressions WHERE channel = 'sms' AND address = ${w.contact.phone}`,
      ),
    ).toEqual({ reason: "classifier", source: first.sid });
    expect(await w.confirmations()).toHaveLength(1);
    expect((await w.confirmations())[0].content).toMatch(/unsubscribed/);
    expect(await db().get(sql`SELECT status FROM messages WHERE id = ${waiting}`)).toEqual({ status: "skipped" });

    // A redelivered task changes nothing and sends no second confirmation.
    await queueOpenAiAnswer(w.key, answer("opt_out_like", 96));
    await runInboundJob(w.deps.db, [first.messageId!], DAYTIME, w.replies);
    expect(await w.confirmations()).toHaveLength(1);

    // Shown on /compliance beside the plain-words ones, with the words, and undone with a note.
    const listed = (await listPlainWordsOptOuts(db())).find((o) => o.phone === w.contact.phone);
    expect(listed).toMatchObject({ reason: "classifier", words });
    await undoPlainWordsOptOut(
      db(),
      listed!.id,
      "Venting, not an opt-out",
      { userId: w.user.id, ipAddress: null },
      DAYTIME,
    );
    expect((await w.contactRow())!.opted_out_at).toBeNull();
    expect((await listPlainWordsOptOuts(db())).some((o) => o.phone === w.contact.phone)).toBe(false);
  });

  it("/compliance shows it as the AI classifier's, and a superuser undoes it with a note through the form (no JS)", async () => {
    const w = await world();
    await queueOpenAiAnswer(w.key, answer("opt_out_like", 97));
    await w.inbound("Please quit bugging me about panels");
    const admin = await createTestUser({ role: "superuser" });
    const cookie = await loginAs(admin);
    const page = await (await call("/compliance", { cookie })).text();
    const item = page.split('data-testid="plain-opt-out"').find((li) => li.includes(w.contact.phone))!;
    expect(item).toContain("AI classifier");
    expect(item).toContain("Please quit bugging me about panels");
    const id = /name="id" value="(\d+)"/.exec(item)![1];
    const res = await call("/compliance", {
      method: "POST",
      cookie,
      body: new URLSearchParams({ intent: "undo-opt-out", id, note: "Venting, not an opt-out" }),
    });
    expect(res.status).toBe(302);
    expect((await w.contactRow())!.opted_out_at).toBeNull();
  });

  it("an unsure opt_out_like, or another intent, leaves the number subscribed", async () => {
    const w = await world();
    await queueOpenAiAnswer(w.key, answer("opt_out_like", 70));
    await w.inbound("ugh, not sure I want these anymore maybe");
    await queueOpenAiAnswer(w.key, answer("not_interested", 97));
    await w.inbound("Not for us this year");
    expect(await openAiCalls(w.key)).toHaveLength(2);
    expect((await w.contactRow())!.opted_out_at).toBeNull();
    expect(await w.confirmations()).toHaveLength(0);
  });

  it("a later START wins over a late second opinion on an earlier reply", async () => {
    const w = await world();
    const earlier = await receiveInboundSms(
      w.deps.db,
      w.queue,
      {
        sid: "SM" + crypto.randomUUID().replace(/-/g, ""),
        from: w.contact.phone,
        to: "+16025550100",
        body: "quit bugging me",
      },
      DAYTIME,
    );
    await receiveInboundSms(
      w.deps.db,
      w.queue,
      { sid: "SM" + crypto.randomUUID().replace(/-/g, ""), from: w.contact.phone, to: "+16025550100", body: "START" },
      DAYTIME,
    );
    await queueOpenAiAnswer(w.key, answer("opt_out_like", 95));
    await runInboundJob(w.deps.db, [earlier.messageId!], DAYTIME, w.replies);
    expect((await w.contactRow())!.opted_out_at).toBeNull();
  });
});
