import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { unsubscribeToken } from "~/messaging/unsubscribe.server";
import { call, createTestUser, db, loginAs } from "../../../../tests/factories";
import { createTestContact, phoneInCallingHours, uniquePhone } from "../../../../tests/contact-factory";
import { cronTick, runSendJobs } from "../../../../tests/worker-events";

type Json = Record<string, any>;
const post = (path: string, cookie: string, json: unknown) => call(path, { method: "POST", cookie, json });

describe("sending APIs", () => {
  it("require a session (401) and POST (405)", async () => {
    expect((await call("/api/test/manual-sms", { method: "POST", json: { phone: "1", message: "x" } })).status).toBe(
      401,
    );
    const cookie = await loginAs(await createTestUser());
    expect((await call("/api/messages/send-broadcast", { cookie })).status).toBe(405);
  });

  it("validate with the spec's messages", async () => {
    const cookie = await loginAs(await createTestUser());
    const msg = async (path: string, body: unknown) => {
      const res = await post(path, cookie, body);
      expect(res.status, path).toBe(400);
      return ((await res.json()) as Json).message;
    };
    expect(await msg("/api/test/manual-sms", { phone: "", message: "hi" })).toBe(
      "Please enter phone number and message",
    );
    expect(await msg("/api/test/manual-sms", { phone: "5551234567" })).toBe("Please enter phone number and message");
    expect(await msg("/api/test/manual-sms", "just a string")).toBe("Invalid data format for manual test");
    expect(await msg("/api/test/manual-email", { email: "a@b.co", subject: "", content: "x" })).toBe(
      "Please enter email, subject, and content",
    );
    expect(await msg("/api/messages/send-broadcast", { type: "sms", content: " ", contactIds: [1] })).toBe(
      "Please enter message content",
    );
    expect(await msg("/api/messages/send-broadcast", { type: "sms", content: "Hi", contactIds: [] })).toBe(
      "Please select at least one contact",
    );
    expect(
      await msg("/api/messages/send-broadcast", {
        type: "sms",
        content: "Hi {{firstname}} {{promoCodez}}",
        contactIds: [1],
      }),
    ).toBe("Unknown variables: {{firstname}}, {{promoCodez}}");
    expect(await msg("/api/messages/send", { to: "5551234567", message: "" })).toBe("Message required");
    expect(await msg("/api/test/manual-sms", { phone: "12345", message: "hi" })).toMatch(/Not a US phone number/);
    expect(await msg("/api/messages/send", { to: "+44 20 7946 0958", message: "hi" })).toMatch(/only \+1 numbers/);
    const someone = await createTestContact((await createTestUser()).id);
    expect(
      await msg("/api/messages/send-broadcast", {
        type: "sms",
        content: "Use code {{promoCode}}",
        contactIds: [someone.id],
      }),
    ).toBe(
      "{{promoCode}} has no value for 1 of 1 recipient (campaign variables have values only in campaign messages); fill it in or add a fallback such as {{promoCode|…}}",
    );
    expect(await msg("/api/messages/send-broadcast", { type: "email", content: "Hi", contactIds: [1] })).toBe(
      "Please enter a subject",
    );
  });

  it("answer 401 before 405 without a session", async () => {
    expect((await call("/api/messages/send-broadcast")).status).toBe(401);
    expect((await call("/api/auth/logout")).status).toBe(401);
  });

  it("a broadcast retried with the same Idempotency-Key is the same broadcast, written once", async () => {
    const user = await createTestUser();
    const cookie = await loginAs(user);
    const c = await createTestContact(user.id);
    const send = () =>
      call("/api/messages/send-broadcast", {
        method: "POST",
        cookie,
        json: { type: "sms", content: "Once {{firstName}}", contactIds: [c.id] },
        headers: { "Idempotency-Key": "abc-123" },
      });
    const first = (await (await send()).json()) as Json;
    const again = (await (await send()).json()) as Json;
    expect(again.broadcastId).toBe(first.broadcastId);
    expect(again.replayed).toBe(true);
    expect(first.segments).toBe(1);
    expect(await db().all(sql`SELECT id FROM messages WHERE contact_id = ${c.id} AND kind = 'broadcast'`)).toHaveLength(
      1,
    );
  });

  it("manual SMS test in local mode: outbox row with a provider id, Message Center data, delivery simulated by the cron, activity logged", async () => {
    const user = await createTestUser();
    const cookie = await loginAs(user);
    // Test texts go only to team members inside their calling hours (issue 23): the user's own number, in a zone where
    // it is daytime on the Worker's real clock. In the one hour a day no US zone is, the refusal is what is checked.
    const open = phoneInCallingHours();
    const phone = open ?? uniquePhone();
    await db().run(sql`UPDATE users SET phone = ${phone} WHERE id = ${user.id}`);
    const res = await post("/api/test/manual-sms", cookie, { phone: phone.slice(2), message: "Testing 1 2 3" });
    if (!open) return expect(((await res.json()) as Json).message).toMatch(/^Quiet hours for this number/);
    expect(res.status).toBe(202);
    const created = (await res.json()) as Json;
    expect(created).toMatchObject({ phone, status: "queued" });
    await runSendJobs([created.id]);

    const outbox = await db().get<Json>(sql`SELECT * FROM outbox_messages WHERE message_id = ${created.id}`);
    expect(outbox).toMatchObject({ channel: "sms", to_address: phone, body: "Testing 1 2 3", status: "sent" });
    const list = (await (await call("/api/messages?tab=outgoing", { cookie })).json()) as Json[];
    const mine = list.find((m) => m.id === created.id)!;
    expect(mine).toMatchObject({
      content: "Testing 1 2 3",
      phone,
      direction: "outbound",
      status: "sent",
      twilioSid: outbox!.sid,
      campaignId: null,
    });
    expect(Object.keys(mine)).toEqual(
      expect.arrayContaining(["id", "content", "phone", "direction", "status", "createdAt", "twilioSid", "campaignId"]),
    );

    await cronTick(new Date(Date.now() + 60_000));
    expect((await db().get<Json>(sql`SELECT status FROM messages WHERE id = ${created.id}`))?.status).toBe("delivered");
    expect(
      await db().get<Json>(sql`SELECT action FROM activity_log WHERE user_id = ${user.id} AND action = 'send_message'`),
    ).toBeTruthy();
  });

  it("a broadcast to contacts renders each contact's variables and lists newest first", async () => {
    const user = await createTestUser();
    const cookie = await loginAs(user);
    const a = await createTestContact(user.id, { firstName: "Ana" });
    const b = await createTestContact(user.id, { firstName: "Ben" });
    // The Worker runs on the real clock: give both a zone where it is daytime now, so quiet hours never apply.
    const zone = [
      "Pacific/Honolulu",
      "America/Los_Angeles",
      "America/New_York",
      "Europe/London",
      "Asia/Kolkata",
      "Asia/Tokyo",
      "Australia/Sydney",
    ].find((z) => {
      const h = Number(
        new Intl.DateTimeFormat("en-US", { timeZone: z, hour: "numeric", hourCycle: "h23" }).format(new Date()),
      );
      return h >= 9 && h <= 18;
    })!;
    await db().run(sql`UPDATE contacts SET time_zone = ${zone}, state = 'AZ' WHERE id IN (${a.id}, ${b.id})`);
    const res = await post("/api/messages/send-broadcast", cookie, {
      type: "sms",
      content: "Hi {{firstName}}!",
      contactIds: [a.id, b.id, a.id],
      scheduledAt: null,
    });
    expect(res.status).toBe(202);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ recipients: 2 });
    const ids = (
      await db().all<{ id: number }>(sql`SELECT id FROM messages WHERE broadcast_id = ${body.broadcastId} ORDER BY id`)
    ).map((r) => r.id);
    await runSendJobs(ids);
    const rows = await db().all<{ content: string; status: string }>(
      sql`SELECT content, status FROM messages WHERE broadcast_id = ${body.broadcastId} ORDER BY id`,
    );
    expect(rows).toEqual([
      { content: "Hi Ana!", status: "sent" },
      { content: "Hi Ben!", status: "sent" },
    ]);
    const list = (await (await call("/api/messages?limit=5", { cookie })).json()) as Json[];
    expect(list.map((m) => m.id)).toEqual([...list.map((m) => m.id)].sort((x, y) => y - x));
  });
});

describe("email unsubscribe without login", () => {
  it("asks on GET, suppresses on POST (also RFC 8058 one-click), and refuses forged tokens", async () => {
    const email = `u${crypto.randomUUID().slice(0, 8)}@example.com`;
    const token = await unsubscribeToken("test-session-secret", email);
    const page = await call(`/unsubscribe/${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(email);
    expect(await db().get(sql`SELECT 1 AS x FROM suppressions WHERE address = ${email}`)).toBeFalsy();
    const one = await call(`/unsubscribe/${token}/one-click`, {
      method: "POST",
      body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }),
      headers: { Origin: "https://mail.example" },
    });
    expect(one.status).toBe(200);
    // The page's own button (same origin) works too, and repeating is harmless.
    expect((await call(`/unsubscribe/${token}`, { method: "POST", body: new URLSearchParams() })).status).toBe(200);
    expect(await db().get(sql`SELECT reason FROM suppressions WHERE channel = 'email' AND address = ${email}`)).toEqual(
      { reason: "email-unsubscribe" },
    );
    const forged = await unsubscribeToken("another-secret", "victim@example.com");
    expect((await call(`/unsubscribe/${forged}`)).status).toBe(404);
    expect(
      (await call(`/unsubscribe/${forged}/one-click`, { method: "POST", body: new URLSearchParams() })).status,
    ).toBe(404);
  });
});

describe("Message Center (local mode)", () => {
  it("records a simulated inbound reply through the webhook's code path; STOP suppresses", async () => {
    const user = await createTestUser();
    const cookie = await loginAs(user);
    const phone = uniquePhone();
    const res = await call("/messages", {
      method: "POST",
      cookie,
      body: new URLSearchParams({ phone, body: "Yes, call me tomorrow" }),
    });
    expect(res.status).toBe(302);
    const inbound = await db().get<Json>(sql`SELECT direction, status, content FROM messages WHERE phone = ${phone}`);
    expect(inbound).toEqual({ direction: "inbound", status: "received", content: "Yes, call me tomorrow" });
    const page = await (await call("/messages?tab=incoming", { cookie })).text();
    expect(page).toContain("Yes, call me tomorrow");
    expect(page).toContain("Received");

    await call("/messages", { method: "POST", cookie, body: new URLSearchParams({ phone, body: "STOP" }) });
    expect(await db().get(sql`SELECT reason FROM suppressions WHERE address = ${phone}`)).toEqual({ reason: "STOP" });
    const empty = await call("/messages", {
      method: "POST",
      cookie,
      body: new URLSearchParams({ phone: "", body: "" }),
    });
    expect(empty.status).toBe(400);
  });

  it("shows the sending backlog (scheduled broadcast waiting in D1)", async () => {
    const user = await createTestUser();
    const cookie = await loginAs(user);
    const c = await createTestContact(user.id);
    const at = new Date(Date.now() + 2 * 24 * 3600_000).toISOString();
    expect(
      (
        await post("/api/messages/send-broadcast", cookie, {
          type: "sms",
          content: "Later",
          contactIds: [c.id],
          scheduledAt: at,
        })
      ).status,
    ).toBe(202);
    const page = await (await call("/messages", { cookie })).text();
    expect(page).toMatch(/Sending backlog:/);
    expect(page).toMatch(/waiting \(scheduled or outside allowed hours\)/);
  });

  it("searches content case-insensitively and by phone, with the empty-state texts", async () => {
    const cookie = await loginAs(await createTestUser());
    const phone = uniquePhone();
    const word = "Zq" + crypto.randomUUID().slice(0, 6);
    await call("/messages", {
      method: "POST",
      cookie,
      body: new URLSearchParams({ phone, body: `About the ${word} panels` }),
    });
    expect(await (await call(`/messages?q=${word.toLowerCase()}`, { cookie })).text()).toContain(
      `About the ${word} panels`,
    );
    expect(
      await (
        await call(
          `/messages?q=${encodeURIComponent(`(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`)}`,
          { cookie },
        )
      ).text(),
    ).toContain(word);
    const none = await (await call(`/messages?q=nothing-like-this-${crypto.randomUUID()}`, { cookie })).text();
    expect(none).toContain("No messages found");
    expect(none).toContain("Try adjusting your search criteria");
  });
});
