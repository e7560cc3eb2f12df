// Outbound webhooks (issue 26 item 4, decision 036) against the loopback fake receiver, which checks the signature
// with Node's crypto the way a customer's endpoint would; nothing of ours is mocked.
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { campaigns, webhookDeliveries, webhookSubscriptions, type WebhookEventType } from "~/db/schema";
import { purgeOldRows } from "~/jobs/purge-old-rows.server";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { createTestContact } from "../../tests/contact-factory";
import { newFakeWebhookEndpoint } from "../../tests/fakes/control";
import { createTestUser, db } from "../../tests/factories";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { recordStatusUpdates } from "~/messaging/record-status.server";
import { reconcileMessages } from "~/messaging/reconcile-messages.server";
import {
  appHooks,
  DAYTIME,
  messageRow,
  pipeline,
  queueMessage,
  recordingQueue,
  runInboundJob,
} from "../../tests/messaging-harness";
import { checkWebhookUrl } from "./check-webhook-url.server";
import { DISABLE_AFTER_FAILURES, MAX_ATTEMPTS, deliverWebhooks, type WebhookDeps } from "./deliver-webhooks.server";
import { dispatchDueWebhooks, dueWebhooksQuery } from "./dispatch-due-webhooks.server";
import { emitLeadCreated, emitWebhookEvent } from "./emit-webhook-event.server";
import { emitRecordedEvents } from "./emit-recorded-events.server";
import {
  createWebhookSubscription,
  deliveryLogQuery,
  replayWebhookDelivery,
  sendTestWebhook,
  setWebhookEnabled,
} from "./manage-webhook-subscriptions.server";
import { signWebhook } from "./sign-webhook.server";
import { WEBHOOK_EVENT_DATA, webhookEventSchema } from "./webhook-events";
import { plan } from "../../tests/query-plan";

const MIN = 60_000;
/** A delivered body, held to the published schema of its event (the OpenAPI document's `webhooks`). */
const documented = (body: string) => {
  const event = JSON.parse(body);
  webhookEventSchema.parse(event);
  // …and nothing in it the document does not name (the schema itself allows additions, as v1 promises).
  const named = Object.keys(WEBHOOK_EVENT_DATA[event.type as WebhookEventType].shape);
  expect(Object.keys(event.data).filter((k) => !named.includes(k))).toEqual([]);
  return event;
};
type Q = ReturnType<typeof recordingQueue>;

async function world(opts: { events?: WebhookEventType[]; maxPerHour?: number } = {}) {
  // Subscriptions are global: one test's must not receive the next test's events.
  await db().update(webhookSubscriptions).set({ enabled: false });
  await db().update(webhookDeliveries).set({ status: "failed", nextAttemptAt: null });
  const user = await createTestUser({ role: "superuser" });
  const actor = { userId: user.id, ipAddress: null };
  const endpoint = await newFakeWebhookEndpoint();
  const { id, secret } = await createWebhookSubscription(
    db(),
    {
      url: endpoint.url,
      description: "CRM",
      events: opts.events ?? ["message.received", "contact.opted_out", "lead.created", "alert.created"],
      maxPerHour: opts.maxPerHour ?? 600,
    },
    actor,
    DAYTIME,
    { allowPrivate: true },
  );
  await endpoint.setSecret(secret);
  const queue = recordingQueue();
  let now = DAYTIME;
  const deps: WebhookDeps = {
    db: db(),
    queue,
    clock: () => now,
    fetch: (i, init) => fetch(i, init),
    allowPrivate: true,
    alertEmail: "sales-alerts@helio.test",
    publicBaseUrl: "https://helio.test",
    random: () => 0.5, // no jitter: the delays are the table's
  };
  /** Runs the queue consumer on every webhook job enqueued so far. */
  async function drain(q: Q = queue) {
    const ids = q.sent.filter((b: any) => b?.type === "webhook-delivery").map((b: any) => b.deliveryId as number);
    q.sent.splice(0);
    await deliverWebhooks(deps, ids);
    return ids;
  }
  const rows = () =>
    db().select().from(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, id)).orderBy(webhookDeliveries.id);
  const sub = () => db().select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)).get();
  return {
    user,
    actor,
    endpoint,
    id,
    secret,
    queue,
    deps,
    drain,
    rows,
    sub,
    setNow: (d: Date) => void (now = d),
    ctx: () => ({ db: db(), queue, now }),
  };
}

describe("outbound webhooks", () => {
  beforeEach(async () => {
    await db().run(sql`ANALYZE`);
  });

  it("a real inbound reply through the pipeline → one signed message.received the receiver verifies; a redelivered inbound job sends nothing new", async () => {
    const w = await world();
    const contact = await createTestContact(w.user.id, { firstName: "Rosa" });
    const inbound = await receiveInboundSms(
      db(),
      w.queue,
      {
        sid: "SM" + crypto.randomUUID().replace(/-/g, ""),
        from: contact.phone,
        to: "+16025550100",
        body: "Yes, call me",
      },
      DAYTIME,
    );
    w.queue.sent.splice(0);
    await runInboundJob(db(), [inbound.messageId!], DAYTIME, undefined, w.queue);
    await w.drain();
    await runInboundJob(db(), [inbound.messageId!], DAYTIME, undefined, w.queue); // the queue redelivers the job
    expect(await w.drain()).toEqual([]);
    const got = await w.endpoint.deliveries();
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ verified: true, answered: 200, contentType: "application/json" });
    const body = documented(got[0].body);
    expect(body).toMatchObject({
      id: `evt_message_received_${inbound.messageId}`,
      type: "message.received",
      created_at: DAYTIME.toISOString(),
      data: { message_id: inbound.messageId, contact_id: contact.id, from: contact.phone, body: "Yes, call me" },
    });
    expect(got[0].eventId).toBe(body.id);
    const [row] = await w.rows();
    expect(row).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200, eventType: "message.received" });
  });

  it("the receiver refuses a wrong secret and a timestamp outside five minutes (the signature covers the timestamp)", async () => {
    const w = await world();
    const body = JSON.stringify({ id: "evt_x", type: "message.received", created_at: DAYTIME.toISOString(), data: {} });
    const post = async (signature: string) =>
      (
        await fetch(w.endpoint.url, {
          method: "POST",
          headers: { "Content-Type": "application/json", "Helio-Signature": signature },
          body,
        })
      ).status;
    expect(await post(await signWebhook(w.secret, body, new Date()))).toBe(200);
    expect(await post(await signWebhook(w.secret, body, new Date(Date.now() - 10 * MIN)))).toBe(400);
    expect(await post(await signWebhook("whsec_wrong", body, new Date()))).toBe(400);
    const fresh = await signWebhook(w.secret, body, new Date());
    expect(await post(fresh.replace(/^t=(\d+)/, (_, t) => `t=${Number(t) + 1}`))).toBe(400); // t is signed
    expect((await w.endpoint.deliveries()).map((d) => d.problem)).toEqual([
      null,
      "timestamp outside the tolerance",
      "bad signature",
      "bad signature",
    ]);
  });

  it("STOP → contact.opted_out, read by the tick from the consent record past its cursor", async () => {
    const w = await world();
    await emitRecordedEvents(w.ctx()); // the cursor starts at the newest row: no history is replayed
    w.queue.sent.splice(0);
    const contact = await createTestContact(w.user.id);
    await receiveInboundSms(
      db(),
      w.queue,
      { sid: "SM" + crypto.randomUUID().replace(/-/g, ""), from: contact.phone, to: "+16025550100", body: "STOP" },
      DAYTIME,
    );
    w.queue.sent.splice(0);
    expect(await emitRecordedEvents(w.ctx())).toMatchObject({ optOuts: 1 });
    await w.drain();
    expect(await emitRecordedEvents(w.ctx())).toMatchObject({ optOuts: 0 }); // past the cursor now
    const got = await w.endpoint.deliveries();
    expect(got).toHaveLength(1);
    expect(got[0].verified).toBe(true);
    expect(documented(got[0].body)).toMatchObject({
      type: "contact.opted_out",
      data: { contact_id: contact.id, channel: "sms", address: contact.phone },
    });
  });

  it("a send the provider refuses (the consumer's final failure) → one signed message.failed; a redelivered job sends nothing new", async () => {
    const w = await world({ events: ["message.failed"] });
    const { deps, twilio, queue } = await pipeline({ clock: () => DAYTIME });
    const contact = await createTestContact(w.user.id, { firstName: "Ines" });
    await twilio.addInvalid(contact.phone);
    const id = await queueMessage(deps, queue, { phone: contact.phone, contactId: contact.id, content: "hi" }, DAYTIME);
    const jobs = queue.takeSendJobs();
    await sendMessages(jobs, deps);
    await w.drain(queue);
    await sendMessages(jobs, deps); // the queue redelivers the job: the row is no longer queued
    expect(await w.drain(queue)).toEqual([]);
    const got = await w.endpoint.deliveries();
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ verified: true, answered: 200 });
    expect(documented(got[0].body)).toMatchObject({
      id: `evt_message_failed_${id}`,
      type: "message.failed",
      data: { message_id: id, contact_id: contact.id, phone: contact.phone, error_code: "21211", campaign_id: null },
    });
  });

  it("a status callback reporting undelivered → one message.failed with the carrier's error; a replayed callback sends nothing new", async () => {
    const w = await world({ events: ["message.failed"] });
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const id = await queueMessage(deps, queue, { content: "hi" }, DAYTIME);
    await sendMessages(queue.takeSendJobs(), deps);
    const { twilio_sid: sid } = (await messageRow(id)) as { twilio_sid: string };
    const report = [{ sid, status: "undelivered", errorCode: "30005", errorMessage: "Unknown destination handset" }];
    await recordStatusUpdates(db(), report, DAYTIME, { hooks: appHooks, queue });
    await w.drain(queue);
    await recordStatusUpdates(db(), report, DAYTIME, { hooks: appHooks, queue }); // Twilio retries the callback
    expect(await w.drain(queue)).toEqual([]);
    const got = await w.endpoint.deliveries();
    expect(got).toHaveLength(1);
    expect(documented(got[0].body)).toMatchObject({
      type: "message.failed",
      data: {
        message_id: id,
        status: "undelivered",
        error_code: "30005",
        error_message: "Unknown destination handset",
      },
    });
  });

  it("an email stuck in sending that the reconciler fails (outcome unknown) → message.failed", async () => {
    const w = await world({ events: ["message.failed"] });
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const id = await queueMessage(
      deps,
      queue,
      { channel: "email", email: "ines@example.com", subject: "Hi", content: "hi" },
      DAYTIME,
    );
    queue.takeSendJobs();
    const claimed = DAYTIME.getTime() - 10 * MIN;
    await db().run(sql`UPDATE messages SET status = 'sending', claimed_at = ${claimed} WHERE id = ${id}`);
    await reconcileMessages(db(), queue, deps.sms, DAYTIME, appHooks.finalFailure);
    await w.drain(queue);
    const got = await w.endpoint.deliveries();
    expect(got.map((d) => documented(d.body))).toMatchObject([{ type: "message.failed", data: { message_id: id } }]);
  });

  it("campaign.completed: campaigns the trigger completes (one watched since before, one newer) → one delivery each, with the counts; nothing twice", async () => {
    const w = await world({ events: ["campaign.completed"] });
    const running = (name: string) =>
      db()
        .insert(campaigns)
        .values({ name, status: "running", waitingCount: 1, contactCount: 1, sentCount: 1, createdBy: w.user.id })
        .returning({ id: campaigns.id })
        .get();
    // The database completes a running campaign when nobody is left waiting (campaigns_complete_au).
    const finish = (id: number) => db().update(campaigns).set({ waitingCount: 0 }).where(eq(campaigns.id, id));
    await emitRecordedEvents(w.ctx()); // a fresh listener starts watching what is unfinished now
    const before = await running("Spring promo");
    await emitRecordedEvents(w.ctx());
    const later = await running("Follow-up");
    await finish(before.id);
    await finish(later.id);
    expect((await emitRecordedEvents(w.ctx())).campaigns).toBe(2);
    expect((await emitRecordedEvents(w.ctx())).campaigns).toBe(0);
    await w.drain();
    const got = (await w.endpoint.deliveries()).map((d) => ({ verified: d.verified, body: documented(d.body) }));
    expect(got).toHaveLength(2);
    expect(got.every((d) => d.verified)).toBe(true);
    expect(got.map((d) => d.body).sort((a, b) => a.data.campaign_id - b.data.campaign_id)).toMatchObject([
      {
        id: `evt_campaign_completed_${before.id}`,
        type: "campaign.completed",
        data: { campaign_id: before.id, name: "Spring promo", counts: { contacts: 1, sent: 1 } },
      },
      { type: "campaign.completed", data: { campaign_id: later.id, name: "Follow-up" } },
    ]);
  });

  it("emitLeadCreated (the lead webhook's call) delivers lead.created; a subscription gets only the events it chose", async () => {
    const w = await world({ events: ["lead.created"] });
    const contact = await createTestContact(w.user.id);
    await emitWebhookEvent(w.ctx(), { type: "message.received", key: "not-chosen", data: {} });
    await emitLeadCreated(w.ctx(), {
      contactId: contact.id,
      phone: contact.phone,
      source: "EnergySage",
      created: true,
    });
    await w.drain();
    const got = await w.endpoint.deliveries();
    expect(got.map((d) => JSON.parse(d.body).type)).toEqual(["lead.created"]);
    expect(documented(got[0].body).data).toMatchObject({ contact_id: contact.id, source: "EnergySage", created: true });
  });

  it("a failing receiver: retries after 1, 5, 30, 120 and 480 minutes through the tick's due query, then the delivery has failed", async () => {
    const w = await world();
    await w.endpoint.failNext(MAX_ATTEMPTS, 503);
    await emitWebhookEvent(w.ctx(), { type: "lead.created", key: "retry", data: {} });
    let t = DAYTIME.getTime();
    await w.drain();
    for (const waitMin of [1, 5, 30, 120, 480]) {
      const [row] = await w.rows();
      expect(row.status).toBe("retrying");
      expect(row.lastStatusCode).toBe(503);
      expect(row.nextAttemptAt!.getTime() - t).toBe(waitMin * MIN);
      expect(await dispatchDueWebhooks(db(), w.queue, new Date(t + waitMin * MIN - 1))).toBe(0); // not yet
      t += waitMin * MIN;
      w.setNow(new Date(t));
      expect(await dispatchDueWebhooks(db(), w.queue, new Date(t))).toBe(1);
      await w.drain();
    }
    const [row] = await w.rows();
    expect(row).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, nextAttemptAt: null, lastStatusCode: 503 });
    expect(row.lastResponse).toContain("failing on purpose");
    expect(await w.endpoint.deliveries()).toHaveLength(MAX_ATTEMPTS);
  });

  it("jitter spreads a retry within ±20 % of its delay", async () => {
    const w = await world();
    w.deps.random = () => 1;
    await w.endpoint.failNext(1, 500);
    await emitWebhookEvent(w.ctx(), { type: "lead.created", key: "jitter", data: {} });
    await w.drain();
    const [row] = await w.rows();
    expect(row.nextAttemptAt!.getTime() - DAYTIME.getTime()).toBe(1.2 * MIN);
  });

  it(`${DISABLE_AFTER_FAILURES} failures in a row disable the subscription with a visible reason, one staff alert email and an activity entry`, async () => {
    const w = await world();
    await w.endpoint.failNext(DISABLE_AFTER_FAILURES + 2, 500);
    for (let i = 0; i < DISABLE_AFTER_FAILURES + 1; i++)
      await emitWebhookEvent(w.ctx(), { type: "lead.created", key: `disable-${w.id}-${i}`, data: {} });
    await w.drain();
    const sub = await w.sub();
    expect(sub).toMatchObject({ enabled: false, consecutiveFailures: DISABLE_AFTER_FAILURES });
    expect(sub!.disabledReason).toContain(`after ${DISABLE_AFTER_FAILURES} failed deliveries in a row`);
    // The delivery after the switch went off is not attempted.
    expect(await w.endpoint.deliveries()).toHaveLength(DISABLE_AFTER_FAILURES);
    expect((await w.rows()).at(-1)).toMatchObject({ status: "failed", lastError: "The subscription is disabled" });
    const alerts = await db().all<{ email: string; subject: string; kind: string }>(
      sql`SELECT email, subject, kind FROM messages WHERE idempotency_key LIKE ${`webhook-disabled:${w.id}:%`}`,
    );
    expect(alerts).toEqual([
      { email: "sales-alerts@helio.test", subject: `Webhook disabled: ${new URL(w.endpoint.url).host}`, kind: "alert" },
    ]);
    const logged = await db().all(
      sql`SELECT 1 FROM activity_log WHERE action = 'webhook_disabled' AND json_extract(details, '$.subscriptionId') = ${w.id}`,
    );
    expect(logged).toHaveLength(1);
    // A superuser turns it on again: the run and the reason are cleared.
    await setWebhookEnabled(db(), w.id, true, w.actor, DAYTIME);
    expect(await w.sub()).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledReason: null });
  });

  it("a receiver that does not answer within the timeout is a failure to retry; a dropped connection too", async () => {
    const w = await world();
    w.deps.timeoutMs = 300;
    await w.endpoint.failNext(1, 200, 1500);
    await w.endpoint.failNext(1, 0);
    await emitWebhookEvent(w.ctx(), { type: "lead.created", key: "slow", data: {} });
    await emitWebhookEvent(w.ctx(), { type: "lead.created", key: "dropped", data: {} });
    await w.drain();
    const [slow, dropped] = await w.rows();
    expect(slow).toMatchObject({ status: "retrying", lastStatusCode: null, lastError: "Timed out after 0 s" });
    expect(dropped.status).toBe("retrying");
    expect(dropped.lastError).toMatch(/^Network error/);
  });

  it("replay sends the same event again (same id, fresh attempts); a test event reaches only this subscription", async () => {
    const w = await world();
    await emitWebhookEvent(w.ctx(), { type: "lead.created", key: "replay", data: { n: 1 } });
    await w.drain();
    const [row] = await w.rows();
    await replayWebhookDelivery(w.ctx(), row.id, w.actor);
    expect((await w.rows())[0]).toMatchObject({ status: "pending", attempts: 0 });
    await w.drain();
    await sendTestWebhook(w.ctx(), w.id, w.actor);
    await w.drain();
    const got = await w.endpoint.deliveries();
    expect(got.map((d) => d.eventId)).toEqual([
      "evt_lead_created_replay",
      "evt_lead_created_replay",
      expect.stringMatching(/^evt_test_/),
    ]);
    expect(got.every((d) => d.verified)).toBe(true);
    expect(documented(got[2].body).data.test).toBe(true);
    await setWebhookEnabled(db(), w.id, false, w.actor, DAYTIME);
    await expect(replayWebhookDelivery(w.ctx(), row.id, w.actor)).rejects.toMatchObject({ code: "conflict" });
  });

  it("the per-subscription cap: past maxPerHour deliveries wait for the next hour, never dropped", async () => {
    const w = await world({ maxPerHour: 2 });
    for (const k of ["a", "b", "c"])
      await emitWebhookEvent(w.ctx(), { type: "lead.created", key: `cap-${w.id}-${k}`, data: {} });
    await w.drain();
    const rows = await w.rows();
    expect(rows.map((r) => r.status)).toEqual(["delivered", "delivered", "retrying"]);
    expect(rows[2]).toMatchObject({ attempts: 0, lastError: "Held: over 2 deliveries this hour" });
    expect(rows[2].nextAttemptAt!.toISOString()).toBe("2026-11-18T20:00:00.000Z"); // the next hour after DAYTIME (19:30 UTC)
    expect(await w.endpoint.deliveries()).toHaveLength(2);
  });

  it("SSRF: production refuses http, loopback, private, link-local and metadata receivers, at creation and at delivery", async () => {
    const prod = { allowPrivate: false };
    for (const url of [
      "http://hooks.example.com/x",
      "https://127.0.0.1/x",
      "https://127.1.2.3/x",
      "https://10.0.0.5/x",
      "https://172.16.0.1/x",
      "https://192.168.1.1/x",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/x",
      "https://[fe80::1]/x",
      "https://[fd00::1]/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://localhost/x",
      "https://metadata.google.internal/x",
      "https://user:pw@hooks.example.com/x",
      "not a url",
    ])
      expect(() => checkWebhookUrl(url, prod), url).toThrowError(expect.objectContaining({ code: "validation" }));
    expect(checkWebhookUrl("https://hooks.example.com/helio", prod).host).toBe("hooks.example.com");
    expect(checkWebhookUrl("https://8.8.8.8/x", prod).host).toBe("8.8.8.8");
    expect(checkWebhookUrl("http://127.0.0.1:8787/x", { allowPrivate: true }).port).toBe("8787");
    const user = await createTestUser({ role: "superuser" });
    await expect(
      createWebhookSubscription(
        db(),
        { url: "https://10.1.2.3/hook", description: "", events: ["lead.created"], maxPerHour: 10 },
        { userId: user.id, ipAddress: null },
        DAYTIME,
        prod,
      ),
    ).rejects.toMatchObject({ code: "validation", field: "url" });
    // A subscription made while private addresses were allowed is still refused when delivering in production.
    const w = await world();
    w.deps.allowPrivate = false;
    w.deps.fetch = () => {
      throw new Error("fetch must not be called");
    };
    await emitWebhookEvent(w.ctx(), { type: "lead.created", key: "ssrf", data: {} });
    await w.drain();
    expect((await w.rows())[0]).toMatchObject({ status: "retrying", lastError: "Webhook URLs must use https" });
  });

  it("query plans: the due retries and the delivery log each use their index; the retention purge removes old rows", async () => {
    const planOf = (q: { toSQL(): { sql: string; params: unknown[] } }) => {
      const { sql: text, params } = q.toSQL();
      return plan(sql.raw(text.replace(/\?/g, () => JSON.stringify(params.shift()).replace(/^"(.*)"$/, "'$1'"))));
    };
    expect(await planOf(dueWebhooksQuery(db(), DAYTIME, 100))).toMatch(
      /^SEARCH webhook_deliveries USING (COVERING )?INDEX webhook_deliveries_due_idx \(next_attempt_at<\?\)$/,
    );
    expect(await planOf(deliveryLogQuery(db(), 1))).toMatch(
      /^SEARCH webhook_deliveries USING (COVERING )?INDEX webhook_deliveries_log_idx \(subscription_id=\?\)$/,
    );
    const w = await world();
    await emitWebhookEvent(
      { ...w.ctx(), now: new Date(DAYTIME.getTime() - 40 * 24 * 60 * MIN) },
      {
        type: "lead.created",
        key: "old",
        data: {},
      },
    );
    const removed = await purgeOldRows(db(), DAYTIME);
    expect(removed.webhook_deliveries).toBeGreaterThanOrEqual(1);
    expect(await w.rows()).toEqual([]);
  });
});
