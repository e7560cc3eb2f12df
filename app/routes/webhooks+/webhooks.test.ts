import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { computeTwilioSignature } from "~/messaging/twilio-signature";
import { newFakeTwilioAccount } from "../../../tests/fakes/control";
import { call, db } from "../../../tests/factories";
import { uniquePhone } from "../../../tests/contact-factory";

const BASE = "https://helio.test";
const TOKEN = "test-twilio-auth-token";
const sid = () => "SM" + crypto.randomUUID().replace(/-/g, "");

async function signedPost(
  path: string,
  params: Record<string, string>,
  opts: { token?: string; tamper?: Record<string, string>; noSignature?: boolean } = {},
) {
  const signature = await computeTwilioSignature(opts.token ?? TOKEN, BASE + path, params);
  const body = new URLSearchParams({ ...params, ...opts.tamper });
  return call(path, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      ...(opts.noSignature ? {} : { "X-Twilio-Signature": signature }),
      Origin: "",
    },
  });
}

async function outboundWithSid(status = "sent") {
  const s = sid();
  const t = Date.now();
  await db()
    .run(sql`INSERT INTO messages (channel, direction, kind, status, phone, content, idempotency_key, twilio_sid, is_marketing, is_test, attempts, scheduled_at, created_at, updated_at)
    VALUES ('sms', 'outbound', 'test', ${status}, ${uniquePhone()}, 'hello', ${"wh:" + s}, ${s}, 0, 1, 1, ${t}, ${t}, ${t})`);
  return s;
}
const statusOf = async (s: string) =>
  (await db().get<{ status: string }>(sql`SELECT status FROM messages WHERE twilio_sid = ${s}`))?.status;

describe("POST /webhooks/twilio/sms (inbound)", () => {
  it("stores a signed inbound message once, even when Twilio retries it", async () => {
    const from = uniquePhone();
    const params = {
      MessageSid: sid(),
      AccountSid: "AC1",
      From: from,
      To: "+15005550006",
      Body: "Is this still available?",
    };
    const first = await signedPost("/webhooks/twilio/sms", params);
    expect(first.status).toBe(200);
    expect(first.headers.get("Content-Type")).toMatch(/text\/xml/);
    expect((await signedPost("/webhooks/twilio/sms", params)).status).toBe(200); // replay
    const rows = await db().all<{ direction: string; status: string; content: string }>(
      sql`SELECT direction, status, content FROM messages WHERE phone = ${from}`,
    );
    expect(rows).toEqual([{ direction: "inbound", status: "received", content: "Is this still available?" }]);
  });

  it("a signed Body longer than Twilio's 1,600 characters is stored cut to 1,600 with a mark (issue 23)", async () => {
    const from = uniquePhone();
    const res = await signedPost("/webhooks/twilio/sms", {
      MessageSid: sid(),
      AccountSid: "AC1",
      From: from,
      To: "+15005550006",
      Body: "b".repeat(20_000),
    });
    expect(res.status).toBe(200);
    const row = await db().get<{ content: string }>(sql`SELECT content FROM messages WHERE phone = ${from}`);
    expect(row!.content).toBe("b".repeat(1600) + " […]");
  });

  it("answers 403 to unsigned, wrongly signed and tampered requests, and stores nothing", async () => {
    const from = uniquePhone();
    const params = { MessageSid: sid(), From: from, To: "+15005550006", Body: "hi" };
    expect((await signedPost("/webhooks/twilio/sms", params, { noSignature: true })).status).toBe(403);
    expect((await signedPost("/webhooks/twilio/sms", params, { token: "not-the-token" })).status).toBe(403);
    expect((await signedPost("/webhooks/twilio/sms", params, { tamper: { Body: "STOP" } })).status).toBe(403);
    expect(await db().all(sql`SELECT id FROM messages WHERE phone = ${from}`)).toEqual([]);
  });

  it("STOP with Twilio's OptOutType suppresses the number and sends no second confirmation", async () => {
    const from = uniquePhone();
    const res = await signedPost("/webhooks/twilio/sms", {
      MessageSid: sid(),
      From: from,
      To: "+15005550006",
      Body: "Stop",
      OptOutType: "STOP",
    });
    expect(res.status).toBe(200);
    expect(await db().get(sql`SELECT reason FROM suppressions WHERE channel = 'sms' AND address = ${from}`)).toEqual({
      reason: "STOP",
    });
    expect(await db().all(sql`SELECT id FROM messages WHERE phone = ${from} AND direction = 'outbound'`)).toEqual([]);
  });
});

describe("POST /webhooks/twilio/status", () => {
  it("moves status forward only: a late 'sent' never overwrites 'delivered'", async () => {
    const s = await outboundWithSid("sent");
    expect((await signedPost("/webhooks/twilio/status", { MessageSid: s, MessageStatus: "delivered" })).status).toBe(
      204,
    );
    expect(await statusOf(s)).toBe("delivered");
    expect((await signedPost("/webhooks/twilio/status", { MessageSid: s, MessageStatus: "sent" })).status).toBe(204);
    expect(
      (await signedPost("/webhooks/twilio/status", { MessageSid: s, MessageStatus: "failed", ErrorCode: "30003" }))
        .status,
    ).toBe(204);
    expect(await statusOf(s)).toBe("delivered");
  });

  it("refuses a tampered callback", async () => {
    const s = await outboundWithSid("sent");
    expect(
      (
        await signedPost(
          "/webhooks/twilio/status",
          { MessageSid: s, MessageStatus: "failed" },
          { tamper: { MessageStatus: "delivered" } },
        )
      ).status,
    ).toBe(403);
    expect(await statusOf(s)).toBe("sent");
  });

  it("our signature check accepts callbacks signed by the fake Twilio server (an independent implementation)", async () => {
    const fake = await newFakeTwilioAccount();
    const { createTwilioSms } = await import("~/messaging/providers/twilio.server");
    const { validateTwilioSignature } = await import("~/messaging/twilio-signature");
    const sent = await createTwilioSms(fake.config()).send({
      to: uniquePhone(),
      body: "hello",
      statusCallback: null,
      messageId: 1,
    });
    const prefix = `/__sink/${crypto.randomUUID()}/webhooks/twilio/status`;
    await fake.statusCallback(sent.sid, "delivered", { url: fake.url + prefix, signWith: TOKEN });
    const [received] = await fake.sink(prefix);
    expect(received.params).toMatchObject({ MessageSid: sent.sid, MessageStatus: "delivered" });
    const signature = received.headers["x-twilio-signature"];
    expect(await validateTwilioSignature(TOKEN, signature, fake.url + prefix, received.params)).toBe(true);
    expect(
      await validateTwilioSignature(TOKEN, signature, fake.url + prefix, {
        ...received.params,
        MessageStatus: "failed",
      }),
    ).toBe(false);
  });

  it("keeps a callback that beats the send's record and applies it once the sid is known", async () => {
    const s = sid();
    expect((await signedPost("/webhooks/twilio/status", { MessageSid: s, MessageStatus: "delivered" })).status).toBe(
      204,
    );
    expect(await db().get(sql`SELECT status FROM status_backlog WHERE sid = ${s}`)).toEqual({ status: "delivered" });
    const t = Date.now();
    await db()
      .run(sql`INSERT INTO messages (channel, direction, kind, status, phone, content, idempotency_key, twilio_sid, is_marketing, is_test, attempts, scheduled_at, created_at, updated_at)
      VALUES ('sms', 'outbound', 'test', 'sent', ${uniquePhone()}, 'x', ${"bl:" + s}, ${s}, 0, 1, 1, ${t}, ${t}, ${t})`);
    const { applyStatusBacklog } = await import("~/messaging/record-status.server");
    await applyStatusBacklog(db(), new Date(), [s]);
    expect(await statusOf(s)).toBe("delivered");
  });
});

it("refuses every webhook when no Twilio auth token is configured (nothing to check a signature with)", async () => {
  const { readSignedTwilioForm } = await import("~/messaging/twilio-webhook.server");
  const params = { MessageSid: sid(), From: uniquePhone(), Body: "hi" };
  // Signed with the token a forger might guess; with no token configured nothing may pass.
  const signature = await computeTwilioSignature(TOKEN, BASE + "/webhooks/twilio/sms", params);
  const request = new Request(BASE + "/webhooks/twilio/sms", {
    method: "POST",
    body: new URLSearchParams(params),
    headers: { "X-Twilio-Signature": signature },
  });
  expect(await readSignedTwilioForm(request, { ...env, TWILIO_AUTH_TOKEN: "" })).toBeNull();
});

describe("keyword order (replays never undo a newer opt-out)", () => {
  const inbound = (from: string, MessageSid: string, Body: string) =>
    signedPost("/webhooks/twilio/sms", { MessageSid, AccountSid: "AC1", From: from, To: "+15005550006", Body });
  const suppressed = async (phone: string) =>
    !!(await db().get(sql`SELECT 1 AS x FROM suppressions WHERE channel = 'sms' AND address = ${phone}`));

  it("START (A), STOP (B), then START A replayed: still opted out and a marketing send is skipped", async () => {
    const { createTestUser, loginAs } = await import("../../../tests/factories");
    const { createTestContact } = await import("../../../tests/contact-factory");
    const user = await createTestUser();
    const cookie = await loginAs(user);
    const c = await createTestContact(user.id);
    const a = sid();
    const b = sid();
    expect((await inbound(c.phone!, a, "START")).status).toBe(200);
    expect((await inbound(c.phone!, b, "STOP")).status).toBe(200);
    expect(await suppressed(c.phone!)).toBe(true);
    expect((await inbound(c.phone!, a, "START")).status).toBe(200); // replay (a Twilio retry or a captured request)
    expect(await suppressed(c.phone!)).toBe(true);
    expect(await db().get(sql`SELECT opted_out_at IS NOT NULL AS out FROM contacts WHERE id = ${c.id}`)).toEqual({
      out: 1,
    });
    const res = await call("/api/messages/send-broadcast", {
      method: "POST",
      cookie,
      json: { type: "sms", content: "Sale!", contactIds: [c.id] },
    });
    expect(res.status).toBeLessThan(500);
    const rows = await db().all<{ id: number; status: string }>(
      sql`SELECT id, status FROM messages WHERE contact_id = ${c.id} AND kind = 'broadcast'`,
    );
    // Whatever was queued, the send consumer must skip it: the number said STOP last.
    const { createExecutionContext, createMessageBatch, getQueueResult } = await import("cloudflare:test");
    const worker = (await import("../../../workers/app")).default;
    const batch = createMessageBatch(
      "helio-jobs",
      rows.map((r) => ({
        id: `k${r.id}`,
        timestamp: new Date(),
        attempts: 1,
        body: { v: 1, type: "send", messageId: r.id },
      })),
    );
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    await getQueueResult(batch, ctx);
    const after = await db().all<{ status: string; error_message: string }>(
      sql`SELECT status, error_message FROM messages WHERE contact_id = ${c.id} AND kind = 'broadcast'`,
    );
    expect(after).toHaveLength(1);
    expect(after.every((r) => r.status === "skipped")).toBe(true);
  });

  it("answers STOP and HELP in the organisation's name, never the platform's (issue 24)", async () => {
    const { saveOrgSettings } = await import("~/messaging/org-settings.server");
    await saveOrgSettings(db(), { company: "Sunny Solar Co", companyPhone: "(415) 555-0199", website: "" }, new Date());
    const phone = uniquePhone();
    await inbound(phone, sid(), "HELP");
    await inbound(phone, sid(), "STOP");
    const replies = await db().all<{ content: string }>(
      sql`SELECT content FROM messages WHERE phone = ${phone} AND kind = 'compliance' ORDER BY id`,
    );
    expect(replies.map((r) => r.content)).toEqual([
      "Sunny Solar Co: solar sales updates. Help: (415) 555-0199. Reply STOP to opt out, START to resubscribe. Msg & data rates may apply.",
      "You have been unsubscribed and will receive no more messages from Sunny Solar Co. Reply START to resubscribe.",
    ]);
    await saveOrgSettings(db(), { company: "", companyPhone: "", website: "" }, new Date());
  });

  it("honours an opt-out in plain words at once: suppressed, one confirmation, listed for review and undoable with a note", async () => {
    const { listPlainWordsOptOuts, undoPlainWordsOptOut } = await import("~/messaging/review-plain-opt-outs.server");
    const { createTestUser } = await import("../../../tests/factories");
    const phone = uniquePhone();
    await inbound(phone, sid(), "Can you stop by on Tuesday?");
    expect(await suppressed(phone)).toBe(false);
    const words = sid();
    expect((await inbound(phone, words, "Please stop texting me, I rent")).status).toBe(200);
    expect(await suppressed(phone)).toBe(true);
    expect(
      await db().get(sql`SELECT reason, source FROM suppressions WHERE channel = 'sms' AND address = ${phone}`),
    ).toEqual({ reason: "plain words", source: words });
    const confirmations = await db().all<{ content: string }>(
      sql`SELECT content FROM messages WHERE phone = ${phone} AND kind = 'compliance'`,
    );
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0].content).toMatch(/unsubscribed/);
    const listed = (await listPlainWordsOptOuts(db())).find((o) => o.phone === phone)!;
    expect(listed.words).toBe("Please stop texting me, I rent");

    const admin = await createTestUser({ role: "superuser" });
    await undoPlainWordsOptOut(
      db(),
      listed.id,
      "She meant stop calling, texts are fine",
      { userId: admin.id, ipAddress: null },
      new Date(),
    );
    expect(await suppressed(phone)).toBe(false);
    const log = await db().get<{ details: string }>(
      sql`SELECT details FROM activity_log WHERE action = 'undo_opt_out' AND user_id = ${admin.id}`,
    );
    expect(JSON.parse(log!.details)).toMatchObject({
      phone,
      note: "She meant stop calling, texts are fine",
      inboundSid: words,
    });
    // A STOP keyword is the homeowner's explicit word: not undoable here.
    await inbound(phone, sid(), "STOP");
    const stopRow = await db().get<{ id: number }>(
      sql`SELECT id FROM suppressions WHERE channel = 'sms' AND address = ${phone}`,
    );
    await expect(
      undoPlainWordsOptOut(db(), stopRow!.id, "no", { userId: admin.id, ipAddress: null }, new Date()),
    ).rejects.toThrow(/no longer on the list/);
  });

  it("STOP (A), START (B), then STOP A replayed: stays opted in; a new STOP still opts out", async () => {
    const phone = uniquePhone();
    const a = sid();
    await inbound(phone, a, "STOP");
    await inbound(phone, sid(), "START");
    expect(await suppressed(phone)).toBe(false);
    await inbound(phone, a, "STOP");
    expect(await suppressed(phone)).toBe(false);
    await inbound(phone, sid(), "stop");
    expect(await suppressed(phone)).toBe(true);
    const row = await db().get<{ keyword: string }>(
      sql`SELECT keyword FROM sms_keyword_state WHERE address = ${phone}`,
    );
    expect(row).toEqual({ keyword: "stop" });
  });

  it("a replayed START changes nothing even with no keyword recorded (history before migration 0012) after an opt-out from elsewhere", async () => {
    const phone = uniquePhone();
    const a = sid();
    await inbound(phone, a, "START");
    await db().run(sql`DELETE FROM sms_keyword_state WHERE address = ${phone}`);
    const { suppress } = await import("~/messaging/compliance.server");
    await suppress(db(), { channel: "sms", address: phone, reason: "twilio:21610" }, new Date());
    await inbound(phone, a, "START"); // the replay: its row is not new, so nothing applies
    expect(await suppressed(phone)).toBe(true);
  });
});
