// The automatic channels' caps through the real Worker (issue 23, decision 021): a bot answering every auto-reply
// through the signed Twilio webhook and the inbound task, a burst, and the test endpoints' refusals on /api and on
// the screens (a form error, without JavaScript).
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import worker from "../../../../workers/app";
import { DEFAULT_CAP_LIMITS } from "~/caps/caps";
import { NOT_TEAM_PHONE } from "~/messaging/check-test-recipient.server";
import { computeTwilioSignature } from "~/messaging/twilio-signature";
import { uniquePhone, uniqueTag } from "../../../../tests/contact-factory";
import { call, createTestUser, db, loginAs } from "../../../../tests/factories";

const BASE = "https://helio.test";
const TOKEN = "test-twilio-auth-token";
const SALES = "sales-alerts@helio.test";
const responders: number[] = [];
let admin: string;

afterAll(async () => {
  for (const id of responders)
    await call(`/api/auto-responders/${id}`, { method: "PUT", cookie: admin, json: { isActive: false } });
});

async function responder(word: string) {
  admin ??= await loginAs(await createTestUser({ role: "superuser" }));
  // The defaults: escalation on, threshold 3, to the sales alert address.
  const res = await call("/api/auto-responders", {
    method: "POST",
    cookie: admin,
    json: {
      name: `Loop ${word}`,
      keywords: [word],
      responses: { primary: `Thanks for your interest in solar! (${word})` },
    },
  });
  expect(res.status).toBe(201);
  responders.push(((await res.json()) as { id: number }).id);
}

/** One text from `from`, as Twilio posts it (signed), then the inbound task the webhook queued, as the queue runs it. */
async function text(from: string, body: string) {
  const params = {
    MessageSid: "SM" + crypto.randomUUID().replace(/-/g, ""),
    From: from,
    To: "+15005550006",
    Body: body,
  };
  const res = await call("/webhooks/twilio/sms", {
    method: "POST",
    body: new URLSearchParams(params),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Twilio-Signature": await computeTwilioSignature(TOKEN, BASE + "/webhooks/twilio/sms", params),
      Origin: "",
    },
  });
  expect(res.status).toBe(200);
  const row = await db().get<{ id: number }>(sql`SELECT id FROM messages WHERE twilio_sid = ${params.MessageSid}`);
  const batch = createMessageBatch("helio-tasks", [
    {
      id: `t-${params.MessageSid}`,
      timestamp: new Date(),
      attempts: 1,
      body: { v: 1, type: "inbound", messageId: row!.id },
    },
  ]);
  await worker.queue(batch, env as never);
  await getQueueResult(batch, createExecutionContext());
}

const autoReplies = (phone: string) =>
  db().all<{ id: number; content: string }>(
    sql`SELECT id, content FROM messages WHERE phone = ${phone} AND kind = 'auto_reply' ORDER BY id`,
  );
const escalationEmails = (phone: string) =>
  db().all(
    sql`SELECT id FROM messages WHERE kind = 'alert' AND email = ${SALES} AND subject LIKE 'Auto-responder escalation:%' AND content LIKE ${`%(${phone})%`}`,
  );

describe("the loop guard on the real inbound path", () => {
  it("a bot that answers every auto-reply with the keyword: 30 texts, at most 1 auto-reply and 1 escalation email", async () => {
    const word = uniqueTag("solar");
    await responder(word);
    const bot = uniquePhone();
    let answered = 0;
    for (let round = 0; round < 30; round++) {
      // The bot answers each new auto-reply with the keyword; when none comes, it tries again all the same.
      await text(bot, word.toUpperCase());
      answered = (await autoReplies(bot)).length;
    }
    expect(answered).toBeLessThanOrEqual(DEFAULT_CAP_LIMITS.autoReplyPerResponder);
    expect(answered).toBe(1);
    expect((await escalationEmails(bot)).length).toBeLessThanOrEqual(DEFAULT_CAP_LIMITS.alertEmailPerConversation);
  });

  it("a burst of 20 different texts with the keyword: 1 auto-reply and 1 escalation email", async () => {
    const word = uniqueTag("solar");
    await responder(word);
    const from = uniquePhone();
    for (let i = 0; i < 20; i++) await text(from, `${word} how much for ${i + 4} kW?`);
    expect(await autoReplies(from)).toHaveLength(1);
    expect(await escalationEmails(from)).toHaveLength(1);
  });

  it("a text that reads like an auto-reply gets none", async () => {
    const word = uniqueTag("solar");
    await responder(word);
    const from = uniquePhone();
    await text(from, `Auto-reply: I'm driving and will get back to you. Re: ${word}`);
    expect(await autoReplies(from)).toEqual([]);
    const page = (await (await call("/auto-responder", { cookie: admin })).text()).replace(/<!-- -->/g, "");
    expect(page).toMatch(
      /data-testid="loop-guard-held"[^>]*>.*?<strong>[1-9]\d*<\/strong> repl(?:y|ies) held by the loop guard today/s,
    );
  });
});

describe("test sends and test alerts", () => {
  it("a test text to a number outside the team: 400 on /api, a form error on the Testing screen; nothing written", async () => {
    const cookie = await loginAs(await createTestUser());
    const stranger = uniquePhone();
    const api = await call("/api/test/manual-sms", {
      method: "POST",
      cookie,
      json: { phone: stranger, message: "Huge solar savings, call now" },
    });
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ message: NOT_TEAM_PHONE });
    const screen = await call("/testing", {
      method: "POST",
      cookie,
      body: new URLSearchParams({ intent: "manual", type: "sms", phone: stranger, message: "Huge solar savings" }),
    });
    expect(screen.status).toBe(400);
    expect(await screen.text()).toContain(NOT_TEAM_PHONE.replace(/'/g, "&#x27;"));
    expect(await db().all(sql`SELECT id FROM messages WHERE phone = ${stranger}`)).toEqual([]);
  });

  it(`test emails: ${DEFAULT_CAP_LIMITS.testSendPerUser} an hour, then 429 with Retry-After; the Testing screen shows what is left`, async () => {
    const user = await createTestUser();
    const cookie = await loginAs(user);
    const send = () =>
      call("/api/test/manual-email", {
        method: "POST",
        cookie,
        json: { email: user.email, subject: "Test", content: "Hello" },
      });
    // Twice the limit plus one: refused at least once even if the hour turns during the loop (the Worker's real clock).
    const refused: Response[] = [];
    const statuses: number[] = [];
    for (let i = 0; i <= 2 * DEFAULT_CAP_LIMITS.testSendPerUser; i++) {
      const res = await send();
      statuses.push(res.status);
      if (res.status === 429) refused.push(res);
      else await res.arrayBuffer();
    }
    expect(statuses.slice(0, DEFAULT_CAP_LIMITS.testSendPerUser)).toEqual(
      Array(DEFAULT_CAP_LIMITS.testSendPerUser).fill(202),
    );
    expect(refused.length).toBeGreaterThan(0);
    expect(Number(refused[0].headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(((await refused[0].json()) as { message: string }).message).toMatch(
      /^Test send limit reached \(10 per hour\)/,
    );
    const page = (await (await call("/testing", { cookie })).text()).replace(/<!-- -->/g, "");
    expect(page).toMatch(/data-testid="test-sends-left"[^>]*>0 of 10 test sends left this hour/);
  });

  it(`test alerts: ${DEFAULT_CAP_LIMITS.testAlertPerUser} an hour per user, then 429 (API) and a form error (screen)`, async () => {
    const cookie = await loginAs(await createTestUser());
    const statuses: number[] = [];
    for (let i = 0; i <= 2 * DEFAULT_CAP_LIMITS.testAlertPerUser; i++) {
      const res = await call("/api/test-smart-alert", {
        method: "POST",
        cookie,
        json: { message: `Is this a good time ${i}?` },
      });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses.slice(0, DEFAULT_CAP_LIMITS.testAlertPerUser)).toEqual(
      Array(DEFAULT_CAP_LIMITS.testAlertPerUser).fill(200),
    );
    expect(statuses).toContain(429);
    const screen = await call("/test-smart-alerts", {
      method: "POST",
      cookie,
      body: new URLSearchParams({ message: "one more" }),
    });
    expect(screen.status).toBe(429);
    expect(await screen.text()).toContain("Test alert limit reached (5 per hour)");
  });
});
