// Decision 018: with real provider credentials and a PUBLIC_BASE_URL that cannot be this app's public https address,
// sends are refused (producers) or held (consumer, never lost), Twilio webhooks answer 503 so Twilio retries, and
// Analytics → System Health says why. The Worker runs with its real entry and an env that differs only in those
// settings; Twilio is the fake server, so a send that should not happen would be seen there.
import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getSystemHealth } from "~/analytics/get-analytics.server";
import { phoneInCallingHours, uniquePhone } from "../../tests/contact-factory";
import { newFakeTwilioAccount, type FakeTwilioAccount } from "../../tests/fakes/control";
import { createTestUser, db, loginAs } from "../../tests/factories";
import { recordingQueue } from "../../tests/messaging-harness";
import { fetchWith, runSendJobs } from "../../tests/worker-events";
import { isPublicHttpsUrl, PUBLIC_URL_NOT_SET, publicUrlProblem } from "./check-public-url.server";
import { PUBLIC_URL_HOLD_MS } from "./consume-send-batch.server";
import { createOutboundMessages } from "./create-outbound-messages.server";
import { enqueueDueMessages } from "./enqueue-due-messages.server";
import { computeTwilioSignature } from "./twilio-signature";

type Json = Record<string, any>;
const LOOPBACK = "http://127.0.0.1:8787";

/** The test Worker's env with Twilio pointed at `fake` and PUBLIC_BASE_URL as given (undefined = not set at all). */
function envWith(fake: FakeTwilioAccount, publicBaseUrl: string | undefined, from = uniquePhone()): Env {
  return {
    ...env,
    PUBLIC_BASE_URL: publicBaseUrl as string,
    TWILIO_ACCOUNT_SID: fake.accountSid,
    TWILIO_AUTH_TOKEN: fake.authToken,
    TWILIO_FROM_NUMBER: from,
    TWILIO_API_BASE: fake.url,
  };
}

const health = (e: Env) => getSystemHealth(db(), e as unknown as Parameters<typeof getSystemHealth>[1], new Date());
const row = (id: number) =>
  db().get<Json>(sql`SELECT status, attempts, scheduled_at, error_message, twilio_sid FROM messages WHERE id = ${id}`);

describe("which PUBLIC_BASE_URL counts as this app's public address", () => {
  it("https on a public name or address only", () => {
    for (const ok of [
      "https://helio.example.com",
      "https://helio.example.com/",
      "https://helio.acme.workers.dev",
      "https://203.0.113.7",
      "https://[2001:db8::1]",
      "https://helio.test",
    ]) {
      expect(isPublicHttpsUrl(ok), ok).toBe(true);
    }
    for (const bad of [
      "",
      "helio.example.com",
      "http://helio.example.com",
      LOOPBACK,
      "https://127.0.0.1:8787",
      "https://localhost",
      "https://app.localhost",
      "https://helio.local",
      "https://helio.internal",
      "https://10.1.2.3",
      "https://172.20.0.5",
      "https://192.168.1.10",
      "https://169.254.1.1",
      "https://100.64.0.1",
      "https://0.0.0.0",
      "https://2130706433", // 127.0.0.1 as one number
      "https://0x7f.1", // and in hex
      "https://[::1]",
      "https://[::ffff:127.0.0.1]",
      "https://[fd00::1]",
      "https://[fe80::1]",
      "https://user:pass@helio.example.com",
    ]) {
      expect(isPublicHttpsUrl(bad), bad).toBe(false);
    }
  });

  it("matters only when Twilio or SendGrid credentials are present", () => {
    expect(publicUrlProblem({ PUBLIC_BASE_URL: LOOPBACK })).toBeNull();
    expect(publicUrlProblem({})).toBeNull();
    expect(publicUrlProblem({ PUBLIC_BASE_URL: LOOPBACK, TWILIO_AUTH_TOKEN: "t" })).toBe(PUBLIC_URL_NOT_SET);
    expect(publicUrlProblem({ TWILIO_ACCOUNT_SID: "AC1" })).toBe(PUBLIC_URL_NOT_SET);
    expect(publicUrlProblem({ PUBLIC_BASE_URL: "http://helio.example.com", SENDGRID_API_KEY: "SG.x" })).toBe(
      PUBLIC_URL_NOT_SET,
    );
    expect(
      publicUrlProblem({
        PUBLIC_BASE_URL: "https://helio.example.com",
        SENDGRID_API_KEY: "SG.x",
        TWILIO_AUTH_TOKEN: "t",
      }),
    ).toBeNull();
  });
});

describe("Twilio credentials with a loopback or missing PUBLIC_BASE_URL", () => {
  it("the consumer holds a queued send as pending with the reason (no attempt, no provider call); it goes once the URL is set", async () => {
    const fake = await newFakeTwilioAccount();
    const from = uniquePhone();
    const phone = uniquePhone();
    const queue = recordingQueue();
    const t0 = new Date();
    const [id] = await createOutboundMessages(
      db(),
      queue,
      [
        {
          channel: "sms",
          kind: "test",
          content: "Held until the URL is right",
          phone,
          idempotencyKey: `pub:${crypto.randomUUID()}`,
        },
      ],
      t0,
    );
    expect((await row(id))?.status).toBe("queued");

    for (const bad of [LOOPBACK, undefined]) {
      const before = Date.now();
      const result = await runSendJobs([id], envWith(fake, bad, from));
      // Acked: queue retries would run out and dead-letter it as failed; the row itself waits.
      expect(result.ackAll).toBe(true); // the one job, acked with its batch
      expect(result.retryMessages).toEqual([]);
      const held = await row(id);
      expect(held).toMatchObject({
        status: "pending",
        attempts: 0,
        error_message: PUBLIC_URL_NOT_SET,
        twilio_sid: null,
      });
      expect(held!.scheduled_at).toBeGreaterThanOrEqual(before + PUBLIC_URL_HOLD_MS);
      expect(await fake.calls()).toEqual([]);
      // What the cron's dispatch does when it is due: back to queued, for the next round.
      expect(await enqueueDueMessages(db(), queue, new Date(held!.scheduled_at), [id])).toBe(1);
    }

    // PUBLIC_BASE_URL fixed: the same message goes, once, with the public status callback.
    await runSendJobs([id], envWith(fake, "https://helio.test", from));
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 1, error_message: null });
    const calls = await fake.calls();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ to: phone, statusCallback: "https://helio.test/webhooks/twilio/status" });

    const h = await health(envWith(fake, LOOPBACK));
    expect(h.publicUrl).toMatchObject({ value: LOOPBACK, problem: PUBLIC_URL_NOT_SET });
    expect(h.publicUrl.lastRefusal?.what).toBe("send");
  });

  it("the send endpoints and the playground refuse with 503 and the message, writing nothing; the local outbox still sends on loopback", async () => {
    const fake = await newFakeTwilioAccount();
    const user = await createTestUser();
    const cookie = await loginAs(user);
    // Test texts go only to team members inside their calling hours (issue 23): the user's own number, in a zone
    // where it is daytime now (null in the one hour a day when no US zone is).
    const open = phoneInCallingHours();
    const phone = open ?? uniquePhone();
    await db().run(sql`UPDATE users SET phone = ${phone} WHERE id = ${user.id}`);
    const body = JSON.stringify({ phone: phone.slice(2), message: "Refused" });
    const json = { "Content-Type": "application/json" };

    const api = await fetchWith(envWith(fake, LOOPBACK), "/api/test/manual-sms", {
      method: "POST",
      cookie,
      headers: json,
      body,
    });
    expect(api.status).toBe(503);
    expect(((await api.json()) as Json).message).toBe(PUBLIC_URL_NOT_SET);
    const broadcast = await fetchWith(envWith(fake, undefined), "/api/messages/send", {
      method: "POST",
      cookie,
      headers: json,
      body: JSON.stringify({ to: phone, message: "x" }),
    });
    expect(broadcast.status).toBe(503);

    const screen = await fetchWith(envWith(fake, LOOPBACK), "/testing", {
      method: "POST",
      cookie,
      body: new URLSearchParams({ intent: "manual", phone: phone.slice(2), message: "Refused" }),
    });
    expect(screen.status).toBe(503);
    expect(await screen.text()).toContain("so Twilio callbacks and unsubscribe links cannot work");

    expect(await db().all(sql`SELECT id FROM messages WHERE phone = ${phone}`)).toEqual([]);
    expect(await fake.calls()).toEqual([]);

    // No credentials: the local outbox on loopback, as `npm start` runs it.
    const outboxEnv = { ...env, PUBLIC_BASE_URL: LOOPBACK, TWILIO_AUTH_TOKEN: "" } as Env;
    const local = await fetchWith(outboxEnv, "/api/test/manual-sms", { method: "POST", cookie, headers: json, body });
    expect(local.status).toBe(open ? 202 : 400);
  });

  it("both Twilio webhooks answer 503 with Retry-After (so Twilio retries) and store nothing; signed right with the public URL, 200", async () => {
    const fake = await newFakeTwilioAccount();
    const from = uniquePhone();
    const sid = "SM" + crypto.randomUUID().replace(/-/g, "");
    const params = { MessageSid: sid, From: from, To: "+15005550006", Body: "Interested" };
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    const signed = async (base: string, path: string, p: Record<string, string>) => ({
      ...form,
      "X-Twilio-Signature": await computeTwilioSignature(fake.authToken, base + path, p),
    });

    for (const bad of [LOOPBACK, undefined]) {
      // Twilio calls the loopback address it was given, signing exactly that URL.
      const webhook = async (path: string, p: Record<string, string>) =>
        fetchWith(envWith(fake, bad), path, {
          method: "POST",
          base: LOOPBACK,
          headers: await signed(LOOPBACK, path, p),
          body: new URLSearchParams(p),
        });
      const sms = await webhook("/webhooks/twilio/sms", params);
      expect(sms.status).toBe(503);
      expect(sms.headers.get("Retry-After")).toBe("300");
      expect(await sms.text()).toBe(PUBLIC_URL_NOT_SET);
      const status = { MessageSid: sid, MessageStatus: "delivered" };
      const cb = await webhook("/webhooks/twilio/status", status);
      expect(cb.status).toBe(503);
    }
    expect(await db().all(sql`SELECT id FROM messages WHERE phone = ${from}`)).toEqual([]);
    expect((await health(envWith(fake, LOOPBACK))).publicUrl.lastRefusal?.what).toBe("webhook");

    // Twilio's retry once PUBLIC_BASE_URL is right: signed against the public URL, accepted.
    const ok = await fetchWith(envWith(fake, "https://helio.test"), "/webhooks/twilio/sms", {
      method: "POST",
      headers: await signed("https://helio.test", "/webhooks/twilio/sms", params),
      body: new URLSearchParams(params),
    });
    expect(ok.status).toBe(200);
    expect(await db().all(sql`SELECT direction FROM messages WHERE phone = ${from}`)).toEqual([
      { direction: "inbound" },
    ]);
  });

  it("Analytics shows the message at the top and in System Health; nothing when the URL is public or there are no credentials", async () => {
    const fake = await newFakeTwilioAccount();
    const cookie = await loginAs(await createTestUser());
    const page = await fetchWith(envWith(fake, LOOPBACK), "/analytics", { cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-testid="public-url-banner"');
    expect(html).toContain('data-testid="public-url-problem"');
    expect(html).toContain("so Twilio callbacks and unsubscribe links cannot work");
    expect(html).toContain(LOOPBACK);

    for (const e of [
      envWith(fake, "https://helio.test"),
      { ...env, PUBLIC_BASE_URL: LOOPBACK, TWILIO_AUTH_TOKEN: "" } as Env,
    ]) {
      const fine = await (await fetchWith(e, "/analytics", { cookie })).text();
      expect(fine).not.toContain("public-url-problem");
      expect(fine).not.toContain("public-url-banner");
    }
  });
});
