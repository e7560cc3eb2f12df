import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createDb, type Db } from "~/db/client.server";
import type { JobQueue } from "~/lib/job-queue";
import { createOutboundMessages } from "./create-outbound-messages.server";
import { dispatchDueMessages } from "./enqueue-due-messages.server";
import { sendMessages, MAX_ATTEMPTS } from "./consume-send-batch.server";
import { reconcileMessages } from "./reconcile-messages.server";
import { messageIdsOf, SEND_QUEUE_BATCH, sendJobsFor } from "~/jobs/jobs";
import { receiveInboundSms } from "./receive-inbound.server";
import { broadcastSchema, sendBroadcast } from "./send-broadcast.server";
import { sendManualSmsTest } from "./create-test-send.server";
import { createTestUser } from "../../tests/factories";
import { createTestContact, seedContacts, uniquePhone, uniqueTag } from "../../tests/contact-factory";
import { longText, measuringD1 } from "../../tests/bound-values";
import {
  DAYTIME,
  messageRow,
  pipeline,
  queueMessage,
  TEST_CONFIG,
  appHooks,
  broadcastAndSend,
  testTexts,
} from "../../tests/messaging-harness";
const TEST_CONFIG_ADDRESS = TEST_CONFIG.companyAddress;
import { OPTED_OUT_REASON } from "./compliance.server";
import { slotIntervalMs } from "./pacing.server";

const actorFor = async () => ({ userId: (await createTestUser()).id, ipAddress: null });

/** One due test text to each phone, "<prefix> <i>". */
const createTestTexts = (db: Db, queue: JobQueue, phones: string[], prefix: string) =>
  createOutboundMessages(
    db,
    queue,
    phones.map((phone, i) => ({
      channel: "sms" as const,
      kind: "test" as const,
      phone,
      content: `${prefix} ${i}`,
      idempotencyKey: `${prefix}:${crypto.randomUUID()}`,
    })),
    new Date(),
  );

describe("send pipeline: exactly one provider call per message", () => {
  it("claims, renders, sends and records the sid; a redelivered job does nothing", async () => {
    const { deps, twilio, queue } = await pipeline({ clock: () => DAYTIME });
    const user = await createTestUser();
    const contact = await createTestContact(user.id, { firstName: "Rosa", state: "AZ" });
    const id = await queueMessage(
      deps,
      queue,
      { kind: "individual", contactId: contact.id, phone: contact.phone, content: "Hi {{firstName}}, solar?" },
      DAYTIME,
      appHooks,
    );
    const jobs = queue.takeSendJobs();
    expect(jobs).toEqual([{ v: 2, type: "send", messageIds: [id] }]);
    expect(await sendMessages(jobs, deps)).toEqual(new Map());
    await sendMessages(jobs, deps); // redelivery

    const calls = await twilio.calls();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      to: contact.phone,
      body: "Hi Rosa, solar?",
      statusCallback: "https://helio.test/webhooks/twilio/status",
    });
    const row = await messageRow(id);
    expect(row).toMatchObject({
      status: "sent",
      twilio_sid: calls[0].sid,
      content: "Hi Rosa, solar?",
      attempts: 1,
      provider: "twilio",
      segments: 1,
    });
  });

  it("a delivery report that reaches us before the send is recorded is applied by the same batch", async () => {
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const { recordStatusUpdates } = await import("./record-status.server");
    // Twilio's callback wins the race: the webhook finds no message with this sid yet and keeps it in the backlog.
    const sms = {
      ...deps.sms,
      send: async (m: Parameters<typeof deps.sms.send>[0]) => {
        const accepted = await deps.sms.send(m);
        await recordStatusUpdates(deps.db, [{ sid: accepted.sid, status: "delivered" }], DAYTIME);
        return accepted;
      },
    };
    const id = await queueMessage(deps, queue, { content: "race the callback" }, DAYTIME);
    await sendMessages(queue.takeSendJobs(), { ...deps, sms });
    const row = await messageRow(id);
    expect(row).toMatchObject({ status: "delivered" });
    expect(await deps.db.get(sql`SELECT 1 AS x FROM status_backlog WHERE sid = ${row.twilio_sid}`)).toBeUndefined();
  });

  it("refuses a second row for the same idempotency key", async () => {
    const { deps, queue } = await pipeline();
    const key = `t:${crypto.randomUUID()}`;
    const msg = {
      channel: "sms" as const,
      kind: "test" as const,
      phone: uniquePhone(),
      content: "x",
      idempotencyKey: key,
    };
    const first = await createOutboundMessages(deps.db, queue, [msg], new Date());
    const second = await createOutboundMessages(deps.db, queue, [msg, msg], new Date());
    expect(first).toHaveLength(1);
    expect(second).toEqual([]);
  });

  it("two consumers racing on the same batch make one call per message", async () => {
    const { deps, twilio, queue } = await pipeline();
    const msgs = testTexts(8, "race");
    await createOutboundMessages(deps.db, queue, msgs, new Date());
    const jobs = queue.takeSendJobs();
    await Promise.all([sendMessages(jobs, deps), sendMessages([...jobs].reverse(), deps), sendMessages(jobs, deps)]);
    const calls = await twilio.calls();
    expect(calls.map((c) => c.body).sort()).toEqual(msgs.map((m) => m.content).sort());
  });

  it("a crash after the provider accepted never causes a second call: the row is reconciled from the provider", async () => {
    const { deps, twilio, queue } = await pipeline();
    // The D1 write that records the outcome (the batch that writes the provider's sid) fails once, as if the worker
    // died right after Twilio said yes. workerd's prepared statements carry their SQL as `statement`.
    let failRecording = true;
    const client = new Proxy(deps.db.$client, {
      get(target, prop) {
        if (prop === "batch") {
          return async (statements: D1PreparedStatement[]) => {
            const writesSid = statements.some((st) =>
              /"twilio_sid"\s*=/.test((st as unknown as { statement: string }).statement),
            );
            if (failRecording && writesSid) {
              failRecording = false;
              throw new Error("worker died");
            }
            return target.batch(statements);
          };
        }
        const v = Reflect.get(target, prop);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const flaky = new Proxy(deps.db, {
      get(target, prop, receiver) {
        if (prop === "$client") return client;
        const v = Reflect.get(target, prop, receiver);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const id = await queueMessage(deps, queue, { content: "crash test" });
    const jobs = queue.takeSendJobs();
    await expect(sendMessages(jobs, { ...deps, db: flaky })).rejects.toThrow("worker died");
    expect((await messageRow(id))?.status).toBe("sending");

    await sendMessages(jobs, deps); // the queue redelivers: the claim refuses, nothing is sent
    expect(await twilio.calls()).toHaveLength(1);

    const later = new Date(Date.now() + 6 * 60_000);
    const result = await reconcileMessages(deps.db, queue, deps.sms, later);
    expect(result.recovered).toBe(1);
    const row = await messageRow(id);
    expect(row).toMatchObject({ status: "sent", twilio_sid: (await twilio.calls())[0].sid });
    expect(queue.takeSendJobs()).toEqual([]);
    expect(await twilio.calls()).toHaveLength(1);
  });

  it("a message due now is written queued; when its queue message never gets out, the reconciler sends it, once", async () => {
    const { deps, twilio, queue } = await pipeline();
    const down = {
      ...queue,
      sendBatch: async () => Promise.reject(new Error("queue unavailable")),
      send: async () => Promise.reject(new Error("queue unavailable")),
    };
    const key = `q:${crypto.randomUUID()}`;
    await expect(
      createOutboundMessages(
        deps.db,
        down,
        [{ channel: "sms", kind: "test", phone: uniquePhone(), content: "queued at once", idempotencyKey: key }],
        new Date(),
      ),
    ).rejects.toThrow();
    const row = await deps.db.get<{ id: number; status: string }>(
      sql`SELECT id, status FROM messages WHERE idempotency_key = ${key}`,
    );
    expect(row?.status).toBe("queued"); // stored, not lost: no pending → queued step to pay for
    await reconcileMessages(deps.db, queue, deps.sms, new Date(Date.now() + 16 * 60_000));
    // (Other tests' rows in this database may be re-enqueued too: only this one is sent here.)
    const ids = queue.takeSendIds().filter((messageId) => messageId === row!.id);
    expect(ids).toHaveLength(1);
    const jobs = sendJobsFor(ids);
    await sendMessages(jobs, deps);
    await sendMessages(jobs, deps); // a duplicate delivery of the job changes nothing
    expect(await twilio.calls()).toHaveLength(1);
    expect((await messageRow(row!.id))?.status).toBe("sent");
  });

  it("a row stuck in sending that the provider never got is queued again and sent once", async () => {
    const { deps, twilio, queue } = await pipeline();
    const id = await queueMessage(deps, queue, { content: "never sent" });
    queue.takeSendJobs();
    await deps.db.run(
      sql`UPDATE messages SET status = 'sending', claimed_at = ${Date.now() - 10 * 60_000} WHERE id = ${id}`,
    );
    await reconcileMessages(deps.db, queue, deps.sms, new Date());
    const jobs = queue.takeSendJobs();
    expect(jobs.flatMap(messageIdsOf)).toEqual([id]);
    await sendMessages(jobs, deps);
    expect(await twilio.calls()).toHaveLength(1);
    expect((await messageRow(id))?.status).toBe("sent");
  });
});

describe("send pipeline: provider errors", () => {
  it("a dropped connection after Twilio accepted is recorded from Twilio, not resent", async () => {
    const { deps, twilio, queue } = await pipeline();
    const id = await queueMessage(deps, queue, { content: "lost answer" });
    const jobs = queue.takeSendJobs();
    await twilio.failNext(1, 0, { afterCreate: true });
    const outcomes = await sendMessages(jobs, deps);
    expect(outcomes.size).toBe(0);
    const created = (await twilio.calls()).filter((c) => c.sid);
    expect(created).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "sent", twilio_sid: created[0].sid });
  });

  it("a dropped connection before Twilio accepted waits for the reconciler, then goes exactly once", async () => {
    const { deps, twilio, queue } = await pipeline();
    const id = await queueMessage(deps, queue, { content: "dropped" });
    const jobs = queue.takeSendJobs();
    await twilio.failNext(1, 0);
    expect((await sendMessages(jobs, deps)).size).toBe(0); // not retried blindly
    expect(await messageRow(id)).toMatchObject({ status: "sending", error_code: "network" });
    await reconcileMessages(deps.db, queue, deps.sms, new Date(Date.now() + 6 * 60_000));
    await sendMessages(queue.takeSendJobs(), deps);
    expect((await twilio.calls()).filter((c) => c.sid)).toHaveLength(1);
    expect((await messageRow(id))?.status).toBe("sent");
  });

  it("an email whose send timed out is failed, never sent twice", async () => {
    const { deps, sendgrid, queue } = await pipeline();
    const id = await queueMessage(deps, queue, {
      channel: "email",
      email: `t${crypto.randomUUID().slice(0, 6)}@example.com`,
      subject: "s",
      content: "x",
    });
    await sendgrid.failNext(1, 0);
    expect((await sendMessages(queue.takeSendJobs(), deps)).size).toBe(0);
    expect(await messageRow(id)).toMatchObject({ status: "failed", error_code: "network" });
  });

  it("a paced batch writes what it has sent while it still sends (decision 084), and the rest at the end", async () => {
    // 2 texts a second: 5 texts take 2 s. Once one has waited a second unwritten, what came back is written.
    const { deps, twilio, queue } = await pipeline({ config: { smsRatePerSecond: 2 } });
    const phones = Array.from({ length: 5 }, () => uniquePhone());
    await createTestTexts(deps.db, queue, phones, "paced");
    let finished = false;
    const sending = sendMessages(queue.takeSendJobs(), deps).then((r) => {
      finished = true;
      return r;
    });
    const statusOf = async (phone: string) =>
      (
        await deps.db.get<{ status: string }>(
          sql`SELECT status FROM messages WHERE phone = ${phone} AND direction = 'outbound' AND kind = 'test'`,
        )
      )?.status;
    // The first text is written before the batch ends (its last slot is ~0.5 s after the fourth).
    let first: string | undefined;
    for (let i = 0; i < 60 && !finished && first !== "sent"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      first = await statusOf(phones[0]);
    }
    expect({ first, finished }).toEqual({ first: "sent", finished: false });
    expect((await sending).size).toBe(0);
    expect(await Promise.all(phones.map(statusOf))).toEqual(phones.map(() => "sent"));
    expect((await twilio.calls()).map((c) => c.to)).toEqual(phones);
  });

  it("a paced batch's write that fails while it sends is taken again by the next: every outcome lands once", async () => {
    // The first outcome write (the only batch that sets twilio_sid) fails once; the batch goes on sending.
    let failures = 0;
    const d1 = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "batch")
          return async (statements: D1PreparedStatement[]) => {
            const sqlOf = (s: D1PreparedStatement) => (s as unknown as { statement: string }).statement;
            if (failures === 0 && statements.some((s) => /"twilio_sid" =/.test(sqlOf(s) ?? ""))) {
              failures++;
              throw new Error("D1_ERROR: simulated outage");
            }
            return target.batch(statements);
          };
        const v = Reflect.get(target, prop);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const { deps, twilio, queue } = await pipeline({ config: { smsRatePerSecond: 2 }, dbOverride: createDb(d1) });
    const phones = Array.from({ length: 5 }, () => uniquePhone());
    await createTestTexts(deps.db, queue, phones, "retried");
    expect((await sendMessages(queue.takeSendJobs(), deps)).size).toBe(0);
    expect(failures).toBe(1);
    const rows = await deps.db.all<{ status: string; twilio_sid: string }>(
      sql`SELECT status, twilio_sid FROM messages WHERE phone IN (SELECT value FROM json_each(${JSON.stringify(phones)}))
        AND direction = 'outbound' AND kind = 'test'`,
    );
    const calls = await twilio.calls();
    expect(calls.map((c) => c.to)).toEqual(phones);
    expect(rows.map((r) => r.status)).toEqual(phones.map(() => "sent"));
    expect(new Set(rows.map((r) => r.twilio_sid))).toEqual(new Set(calls.map((c) => c.sid)));
  });

  it("a STOP that arrives while a message waits for its paced slot stops it", async () => {
    const { deps, twilio, queue } = await pipeline({ config: { smsRatePerSecond: 1 } });
    const phones = [uniquePhone(), uniquePhone(), uniquePhone(), uniquePhone()];
    await createTestTexts(deps.db, queue, phones, "slot");
    const sending = sendMessages(queue.takeSendJobs(), deps);
    await new Promise((r) => setTimeout(r, 500));
    await receiveInboundSms(
      deps.db,
      queue,
      { sid: "SM" + crypto.randomUUID().replace(/-/g, ""), from: phones[3], to: "+1", body: "STOP" },
      new Date(),
    );
    await sending;
    expect((await twilio.calls()).map((c) => c.to)).toEqual(phones.slice(0, 3));
    const last = await deps.db.get<{ status: string }>(
      sql`SELECT status FROM messages WHERE phone = ${phones[3]} AND direction = 'outbound' AND kind = 'test'`,
    );
    expect(last?.status).toBe("skipped");
  });

  it("429 → retried later (Retry-After honoured), then sent", async () => {
    const { deps, twilio, queue } = await pipeline();
    const id = await queueMessage(deps, queue, { content: "busy" });
    const jobs = queue.takeSendJobs();
    await twilio.failNext(1, 429, { retryAfter: 7 });
    const outcomes = await sendMessages(jobs, deps);
    expect(outcomes).toEqual(new Map([[id, { retryAfterSeconds: 7 }]])); // keyed by message id
    expect(await messageRow(id)).toMatchObject({ status: "queued", attempts: 1 });
    await sendMessages(jobs, deps);
    expect(await messageRow(id)).toMatchObject({ status: "sent", attempts: 2 });
    expect((await twilio.calls()).filter((c) => c.httpStatus === 201)).toHaveLength(1);
  });

  it("5xx backs off exponentially and gives up after MAX_ATTEMPTS", async () => {
    const { deps, twilio, queue } = await pipeline();
    const id = await queueMessage(deps, queue, { content: "down" });
    const jobs = queue.takeSendJobs();
    await twilio.failNext(100, 503);
    const delays: number[] = [];
    for (let i = 0; i < MAX_ATTEMPTS + 1; i++) {
      const o = (await sendMessages(jobs, deps)).get(id);
      if (o && "retryAfterSeconds" in o) delays.push(o.retryAfterSeconds);
    }
    expect(delays.slice(0, 4)).toEqual([5, 10, 20, 40]);
    expect(await messageRow(id)).toMatchObject({ status: "failed" });
  });

  it("permanent errors fail with the reason; 21610 also suppresses the number everywhere", async () => {
    const { deps, twilio, queue } = await pipeline();
    const bad = uniquePhone();
    const gone = uniquePhone();
    await twilio.addInvalid(bad);
    await twilio.addUnsubscribed(gone);
    const ids = await createOutboundMessages(
      deps.db,
      queue,
      [
        { channel: "sms", kind: "test", phone: bad, content: "a", idempotencyKey: `p:${crypto.randomUUID()}` },
        { channel: "sms", kind: "test", phone: gone, content: "b", idempotencyKey: `p:${crypto.randomUUID()}` },
      ],
      new Date(),
    );
    const outcomes = await sendMessages(queue.takeSendJobs(), deps);
    expect(outcomes.size).toBe(0); // acked, not retried
    expect(await messageRow(ids[0])).toMatchObject({ status: "failed", error_code: "21211" });
    expect(await messageRow(ids[1])).toMatchObject({ status: "failed", error_code: "21610" });
    expect(
      await deps.db.get(sql`SELECT reason FROM suppressions WHERE channel = 'sms' AND address = ${gone}`),
    ).toMatchObject({ reason: "provider:21610" });
  });
});

describe("compliance in the pipeline", () => {
  const variants = [
    "STOP",
    "stop",
    " Stop ",
    "STOP.",
    "stop!",
    "Unsubscribe",
    "CANCEL",
    "end",
    "QUIT",
    "revoke",
    "OPTOUT",
    "opt out",
    "Opt-Out",
    "STOPALL",
  ];

  it.each(variants)(
    "inbound %j suppresses the number: the next broadcast skips it without a provider call",
    async (body) => {
      const { deps, twilio, queue } = await pipeline({ clock: () => DAYTIME });
      const actor = await actorFor();
      const contact = await createTestContact(actor.userId, { state: "AZ" });
      const r = await receiveInboundSms(
        deps.db,
        queue,
        { sid: "SM" + crypto.randomUUID().replace(/-/g, ""), from: contact.phone, to: "+15005550006", body },
        DAYTIME,
      );
      expect(r.keyword).toBe("stop");
      // One confirmation reply, exempt from the suppression it confirms.
      const confirmations = queue.takeSendJobs();
      expect(confirmations).toHaveLength(1);
      await sendMessages(confirmations, deps);
      expect((await twilio.calls()).map((c) => c.body)).toEqual([expect.stringMatching(/unsubscribed/i)]);

      await broadcastAndSend(
        { deps, queue },
        DAYTIME,
        { type: "sms", content: "Big news", contactIds: [contact.id] },
        actor,
      );
      expect(await twilio.calls()).toHaveLength(1);
      const row = await deps.db.get<{ status: string; error_message: string }>(
        sql`SELECT status, error_message FROM messages WHERE contact_id = ${contact.id} AND kind = 'broadcast'`,
      );
      expect(row).toEqual({ status: "skipped", error_message: OPTED_OUT_REASON });
    },
  );

  it("STOP in any case, spacing and trailing punctuation suppresses (property)", async () => {
    const { deps, queue } = await pipeline();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "REVOKE", "OPTOUT", "OPT OUT"),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        fc.constantFrom("", " ", "  ", "\n"),
        fc.constantFrom("", ".", "!", "?", "!!"),
        async (word, upper, pad, punct) => {
          const body =
            pad +
            [...word]
              .map((ch, i) => (upper[i % 12] ? ch.toUpperCase() : ch.toLowerCase()))
              .join("")
              .replace(" ", pad || " ") +
            punct +
            pad;
          const phone = uniquePhone();
          await receiveInboundSms(
            deps.db,
            queue,
            { sid: "SM" + crypto.randomUUID().replace(/-/g, ""), from: phone, to: "+1", body },
            new Date(),
          );
          const s = await deps.db.get(
            sql`SELECT 1 AS x FROM suppressions WHERE channel = 'sms' AND address = ${phone}`,
          );
          expect(s, JSON.stringify(body)).toBeTruthy();
        },
      ),
      { numRuns: 40 },
    );
  });

  it("a second STOP gets no second confirmation; START re-subscribes and confirms; Twilio-handled keywords get no reply from us", async () => {
    const { deps, queue } = await pipeline();
    const phone = uniquePhone();
    const sid = () => "SM" + crypto.randomUUID().replace(/-/g, "");
    await receiveInboundSms(deps.db, queue, { sid: sid(), from: phone, to: "+1", body: "STOP" }, new Date());
    await receiveInboundSms(deps.db, queue, { sid: sid(), from: phone, to: "+1", body: "stop" }, new Date());
    expect(queue.takeSendJobs()).toHaveLength(1);
    await receiveInboundSms(deps.db, queue, { sid: sid(), from: phone, to: "+1", body: "START" }, new Date());
    expect(queue.takeSendJobs()).toHaveLength(1);
    expect(await deps.db.get(sql`SELECT 1 AS x FROM suppressions WHERE address = ${phone}`)).toBeFalsy();
    await receiveInboundSms(
      deps.db,
      queue,
      { sid: sid(), from: phone, to: "+1", body: "STOP", optOutType: "STOP" },
      new Date(),
    );
    expect(queue.takeSendJobs()).toHaveLength(0);
    expect(await deps.db.get(sql`SELECT 1 AS x FROM suppressions WHERE address = ${phone}`)).toBeTruthy();
  });

  it("a lead's YES (never opted out) is an ordinary reply for the processors, not a command", async () => {
    const { deps, queue } = await pipeline();
    const phone = uniquePhone();
    const r = await receiveInboundSms(
      deps.db,
      queue,
      { sid: "SM" + crypto.randomUUID().replace(/-/g, ""), from: phone, to: "+1", body: "Yes!" },
      new Date(),
    );
    expect(r.keyword).toBe("start");
    expect(queue.sent).toEqual([{ v: 1, type: "inbound", messageId: r.messageId }]);
  });

  it("two STOPs racing from one number get one confirmation between them", async () => {
    const { deps, queue } = await pipeline();
    const phone = uniquePhone();
    const stop = () =>
      receiveInboundSms(
        deps.db,
        queue,
        { sid: "SM" + crypto.randomUUID().replace(/-/g, ""), from: phone, to: "+1", body: "STOP" },
        new Date(),
      );
    await Promise.all([stop(), stop(), stop()]);
    expect(queue.takeSendJobs()).toHaveLength(1);
  });

  it("defers marketing outside 08:00–21:00 local time to the next allowed minute, never drops it; a test text in quiet hours is refused", async () => {
    // 02:30 UTC = 21:30 in New York (EST).
    const late = new Date("2026-11-19T02:30:00Z");
    const { deps, twilio, queue } = await pipeline({ clock: () => late });
    const actor = await actorFor();
    const contact = await createTestContact(actor.userId, { state: "NY" });
    await broadcastAndSend(
      { deps, queue },
      late,
      { type: "sms", content: "Evening offer", contactIds: [contact.id] },
      actor,
    );
    const row = await deps.db.get<{ status: string; scheduled_at: number }>(
      sql`SELECT status, scheduled_at FROM messages WHERE contact_id = ${contact.id}`,
    );
    expect(row?.status).toBe("pending");
    expect(new Date(row!.scheduled_at).toISOString()).toBe("2026-11-19T13:00:00.000Z"); // 08:00 EST
    expect(await twilio.calls()).toHaveLength(0);

    // Issue 23: a test text goes only to a team member, and never in the recipient's quiet hours (a 212 number: New York).
    const teamPhone = uniquePhone(["212"]);
    await deps.db.run(sql`UPDATE users SET phone = ${teamPhone} WHERE id = ${actor.userId}`);
    await expect(
      sendManualSmsTest(
        { db: deps.db, queue, now: late, hooks: appHooks },
        { phone: teamPhone, message: "test ping" },
        actor,
      ),
    ).rejects.toMatchObject({
      code: "validation",
      message: "Quiet hours for this number: test texts can be sent from 8:00 AM EST",
    });
    const test = await sendManualSmsTest(
      { db: deps.db, queue, now: new Date("2026-11-19T13:00:00Z"), hooks: appHooks },
      { phone: teamPhone, message: "test ping" },
      actor,
    );
    expect(await messageRow(test!.id)).toMatchObject({ status: "queued", is_test: 1, kind: "test" });
    queue.takeSendJobs();

    // The cron picks the deferred one up when its time comes.
    expect(await dispatchDueMessages(deps.db, queue, new Date("2026-11-19T12:59:00Z"))).toBe(0);
    await dispatchDueMessages(deps.db, queue, new Date("2026-11-19T13:00:00Z"));
    const morning = await pipeline({ clock: () => new Date("2026-11-19T13:00:30Z") });
    await sendMessages(queue.takeSendJobs(), { ...morning.deps, sms: deps.sms });
    expect((await twilio.calls()).map((c) => c.body)).toEqual(["Evening offer"]);
  });

  it("without a known state the strictest state window applies (ends 20:00 local)", async () => {
    // 01:30 UTC = 20:30 in New York (EST): allowed in most states until 21:00, not in FL/OK/MD/WA.
    const at = new Date("2026-11-19T01:30:00Z");
    const { deps, twilio, queue } = await pipeline({ clock: () => at });
    const actor = await actorFor();
    const noState = await createTestContact(actor.userId, {
      phone: `+1305${String(2000000 + Math.floor(Math.random() * 7000000))}`,
    }); // Miami number, no state
    const ny = await createTestContact(actor.userId, { state: "NY" });
    expect(noState.timeZone).toBe("America/New_York");
    await broadcastAndSend(
      { deps, queue },
      at,
      { type: "sms", content: "Evening", contactIds: [noState.id, ny.id] },
      actor,
    );
    expect((await twilio.calls()).map((c) => c.to)).toEqual([ny.phone]);
  });

  it("replaces #PLACEHOLDERS# with nothing when the number is not a contact", async () => {
    const { deps, twilio, queue } = await pipeline();
    await queueMessage(deps, queue, { content: "Hi #FIRST_NAME#, from #COMPANY#." });
    await sendMessages(queue.takeSendJobs(), deps);
    expect((await twilio.calls())[0].body).toBe("Hi , from .");
  });

  it("skips numbers flagged not sendable, with the reason", async () => {
    const { deps, twilio, queue } = await pipeline({ clock: () => DAYTIME });
    const actor = await actorFor();
    const contact = await createTestContact(actor.userId, { phone: "+44 20 7946 0958", state: "AZ" });
    await broadcastAndSend({ deps, queue }, DAYTIME, { type: "sms", content: "Hi", contactIds: [contact.id] }, actor);
    const row = await deps.db.get<{ status: string; error_message: string }>(
      sql`SELECT status, error_message FROM messages WHERE contact_id = ${contact.id}`,
    );
    expect(row?.status).toBe("skipped");
    expect(row?.error_message).toBe(contact.unsendableReason);
    expect(await twilio.calls()).toHaveLength(0);
  });
});

describe("pacing and scheduling", () => {
  // The spacing itself (never more than N in any second, never before its slot) is pinned with a fixed clock in
  // pacing.test.ts and measured on the wire by bench/broadcast.mjs; wall-clock gaps here only flaked under load.
  it("holds the daily cap: sends beyond it wait in D1 with the reason", async () => {
    const { deps, twilio, queue } = await pipeline({ config: { smsRatePerSecond: 10, smsDailyCap: 6 } });
    const msgs = testTexts(8, "paced");
    const ids = await createOutboundMessages(deps.db, queue, msgs, new Date());
    await sendMessages(queue.takeSendJobs(), deps);
    const at = (await twilio.calls()).map((c) => c.at).sort((a, b) => a - b);
    expect(at).toHaveLength(6);
    const capped = await deps.db.all<{ status: string; error_message: string }>(
      sql`SELECT status, error_message FROM messages WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND status = 'pending'`,
    );
    expect(capped).toHaveLength(2);
    expect(capped[0].error_message).toMatch(/daily limit/);
  });

  it("a backlog beyond the pacing window waits in D1 in line, one interval apart, without using up queue retries", async () => {
    const t0 = new Date();
    // Room for two slots: the 30 ms lead, then 1,025 ms apart at 1/s.
    const { deps, twilio, queue } = await pipeline({ config: { smsRatePerSecond: 1, pacingWindowMs: 2100 } });
    const msgs = testTexts(6, "line");
    const ids = await createOutboundMessages(deps.db, queue, msgs, t0);
    const outcomes = await sendMessages(queue.takeSendJobs(), deps);
    expect(outcomes.size).toBe(0); // nothing goes back to the queue to be retried
    expect((await twilio.calls()).length).toBe(2); // 2 s window at 1/s
    const waiting = await deps.db.all<{ scheduled_at: number; pacing_deferrals: number; error_message: string }>(
      sql`SELECT scheduled_at, pacing_deferrals, error_message FROM messages WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND status = 'pending' ORDER BY scheduled_at`,
    );
    expect(waiting).toHaveLength(4);
    expect(waiting.every((w) => w.pacing_deferrals === 1 && /send slot/.test(w.error_message))).toBe(true);
    // In line behind the two that got slots, one interval apart; each comes back via the cron up to a minute
    // before its turn (here that is at once).
    const pacing = await deps.db.get<{ next_slot_ms: number; projected_ms: number }>(
      sql`SELECT next_slot_ms, projected_ms FROM sender_pacing WHERE sender = ${deps.sms.sender}`,
    );
    // Four intervals, less however late the last send started (carryLateness moves the line by that much).
    expect(pacing!.projected_ms - pacing!.next_slot_ms).toBeLessThanOrEqual(4 * slotIntervalMs(1));
    expect(pacing!.projected_ms - pacing!.next_slot_ms).toBeGreaterThan(4 * slotIntervalMs(1) - 100);
    expect(waiting.every((w) => w.scheduled_at >= t0.getTime() && w.scheduled_at <= pacing!.projected_ms)).toBe(true);
  });

  it("a broadcast scheduled for later waits in D1 until the cron enqueues it", async () => {
    const { deps, queue } = await pipeline();
    const actor = await actorFor();
    const c = await createTestContact(actor.userId);
    const at = new Date(Date.now() + 3 * 24 * 3600_000); // beyond the queue's 24 h delay cap
    const res = await sendBroadcast(
      { db: deps.db, queue, now: new Date(), hooks: appHooks },
      { type: "sms", content: "Later", contactIds: [c.id], scheduledAt: at.toISOString() },
      actor,
    );
    expect(res).toMatchObject({ recipients: 1, queued: 0, scheduledAt: at.toISOString() });
    const [{ id }] = await deps.db.all<{ id: number }>(
      sql`SELECT id FROM messages WHERE broadcast_id = ${res.broadcastId}`,
    );
    // Other tests' deferred rows share this database: look only at this broadcast's message.
    const queuedIds = () => queue.takeSendIds();
    expect(queuedIds()).not.toContain(id);
    await dispatchDueMessages(deps.db, queue, new Date(at.getTime() - 60_000));
    expect(queuedIds()).not.toContain(id);
    await dispatchDueMessages(deps.db, queue, at);
    expect(queuedIds()).toContain(id);
  });
});

describe("email", () => {
  it("sends through SendGrid with List-Unsubscribe, a postal address and a login-free unsubscribe link; unsubscribed addresses are skipped", async () => {
    const { deps, sendgrid, queue } = await pipeline();
    const actor = await actorFor();
    const { sendManualEmailTest } = await import("./create-test-send.server");
    const { suppress } = await import("./compliance.server");
    const to = (await createTestUser()).email; // test emails go only to team members (issue 23)
    const m = await sendManualEmailTest(
      { db: deps.db, queue, now: new Date(), hooks: appHooks },
      { email: to, subject: "Your quote", content: "Hello <b>there</b>" },
      actor,
    );
    await sendMessages(queue.takeSendJobs(), deps);
    const [call] = await sendgrid.calls();
    expect(call.to).toEqual([to]);
    expect(call.subject).toBe("Your quote");
    expect(call.headers["List-Unsubscribe"]).toMatch(/^<https:\/\/helio\.test\/unsubscribe\/[^>]+\/one-click>$/);
    expect(call.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(call.html).toContain("Hello &lt;b&gt;there&lt;/b&gt;"); // user text is escaped
    expect(call.html).toContain(TEST_CONFIG_ADDRESS);
    expect(call.text).toMatch(/Unsubscribe: https:\/\/helio\.test\/unsubscribe\//);
    expect(await messageRow(m!.id)).toMatchObject({ status: "sent", twilio_sid: call.messageId, provider: "sendgrid" });

    await suppress(deps.db, { channel: "email", address: to, reason: "email-unsubscribe" }, new Date());
    const again = await sendManualEmailTest(
      { db: deps.db, queue, now: new Date(), hooks: appHooks },
      { email: to, subject: "Again", content: "Hi" },
      actor,
    );
    await sendMessages(queue.takeSendJobs(), deps);
    expect(await sendgrid.calls()).toHaveLength(1);
    expect(await messageRow(again!.id)).toMatchObject({ status: "skipped" });
  });
});

describe("email broadcasts sized by bytes (D1 refuses a bound value over 2 MB)", () => {
  // 50,000 characters is the broadcast schema's maximum; most of this text is 3–4 bytes a character in UTF-8, so one
  // rendered copy is ~115 KB and a claim of 100 of them would be ~11 MB in one JSON parameter.
  async function broadcastAndConsume(content: string, recipients: number) {
    const measured = measuringD1(env.DB);
    const { deps, sendgrid, queue } = await pipeline({ clock: () => DAYTIME, dbOverride: createDb(measured.d1) });
    const actor = await actorFor();
    const tag = uniqueTag("bc");
    const people = await seedContacts(
      recipients,
      (i) => ({ firstName: `Zoë${i}`, email: `bc${i}.${tag}@example.com` }),
      actor.userId,
    );
    const input = broadcastSchema.parse({
      type: "email",
      subject: "Votre étude solaire, {{firstName|ami}} ☀",
      content,
      contactIds: people.map((p) => p.id),
    });
    const res = await sendBroadcast({ db: deps.db, queue, now: DAYTIME, hooks: appHooks }, input, actor);
    expect(res).toMatchObject({ recipients, queued: recipients });
    const jobs = queue.takeSendJobs();
    // The queue hands the consumer SEND_QUEUE_BATCH jobs at a time (max_batch_size): each batch is claimed and
    // sent, none retried.
    for (let i = 0; i < jobs.length; i += SEND_QUEUE_BATCH)
      expect(await sendMessages(jobs.slice(i, i + SEND_QUEUE_BATCH), deps)).toEqual(new Map());
    const rows = await deps.db.all<{ contact_id: number; status: string; content: string; subject: string }>(
      sql`SELECT contact_id, status, content, subject FROM messages WHERE broadcast_id = ${res.broadcastId}`,
    );
    expect(rows).toHaveLength(recipients);
    expect(rows.filter((r) => r.status !== "sent")).toEqual([]);
    const calls = await sendgrid.calls();
    expect(calls).toHaveLength(recipients);
    expect(measured.seen.maxValueBytes).toBeLessThanOrEqual(1_000_000);
    expect(measured.seen.maxSqlBytes).toBeLessThan(20_000);
    return { people, rows, calls, seen: measured.seen };
  }

  it("a personalised 50,000-character email to 120 recipients: every copy claimed, sent and stored as rendered", async () => {
    const content = longText(50_000, "Bonjour {{firstName}} 👋\n");
    expect(content).toHaveLength(50_000);
    const { people, rows, calls, seen } = await broadcastAndConsume(content, 120);
    expect(seen.maxValueBytes).toBeGreaterThan(500_000); // the claims did carry ~1 MB of rendered copies each
    const nameOf = new Map(people.map((p) => [p.id, p.firstName]));
    for (const r of rows) {
      expect(r.content).toBe(content.replace("{{firstName}}", nameOf.get(r.contact_id)!));
      expect(r.subject).toBe(`Votre étude solaire, ${nameOf.get(r.contact_id)} ☀`);
    }
    const byTo = new Map(people.map((p) => [p.email, p.firstName]));
    for (const call of calls)
      expect(call.text!.startsWith(content.replace("{{firstName}}", byTo.get(call.to[0])!))).toBe(true);
  });

  it("a message its variables make too long to store (over 1 MB) fails alone, with the reason; the rest of the batch goes", async () => {
    const { deps, sendgrid, queue } = await pipeline({ clock: () => DAYTIME });
    const actor = await actorFor();
    const long = await createTestContact(actor.userId, {
      address: "☀".repeat(300),
      email: `long.${uniqueTag()}@example.com`,
    });
    const plain = await createTestContact(actor.userId, {
      address: "1 Sun Way",
      email: `plain.${uniqueTag()}@example.com`,
    });
    // 50,000 characters of {{address}}: 4,545 tokens of 300 three-byte characters each, 4 MB once rendered (before,
    // the claim of the whole batch failed with SQLITE_TOOBIG and the batch went to the dead-letter queue).
    const content = "{{address}}".repeat(4545);
    const ids = await createOutboundMessages(
      deps.db,
      queue,
      [long, plain].map((c) => ({
        channel: "email" as const,
        kind: "individual" as const,
        contactId: c.id,
        email: c.email,
        subject: "Hi",
        content,
        idempotencyKey: `big:${crypto.randomUUID()}`,
      })),
      DAYTIME,
    );
    expect(await sendMessages(queue.takeSendJobs(), deps)).toEqual(new Map());
    expect(await messageRow(ids[0])).toMatchObject({
      status: "failed",
      content,
      error_message: "Too long once its variables are filled in (over 1 MB); shorten the message",
    });
    expect(await messageRow(ids[1])).toMatchObject({ status: "sent", content: "1 Sun Way".repeat(4545) });
    expect((await sendgrid.calls()).map((c) => c.to)).toEqual([[plain.email]]);
  });

  it("the same 50,000-character email to 100 recipients is sent to each (the claim need not carry 100 copies)", async () => {
    const content = longText(50_000, "Bonjour à tous 👋\n");
    const { rows, calls, seen } = await broadcastAndConsume(content, 100);
    expect(seen.maxValueBytes).toBeLessThan(200_000); // the body, bound once by the broadcast's INSERT; no claim carries it
    expect(rows.every((r) => r.content === content)).toBe(true);
    expect(calls.every((c) => c.text!.startsWith(content))).toBe(true);
  });
});
