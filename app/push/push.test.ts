import { eq, sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { DEFAULT_CAP_LIMITS } from "~/caps/caps";
import { linkClicks, pushPreferences, pushSubscriptions, users, contacts } from "~/db/schema";
import { jobSchema, type PushJob } from "~/jobs/jobs";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { alertRulesMadeHere, staffAlertRule } from "../../tests/alert-rules";
import { uniquePhone } from "../../tests/contact-factory";
import { call, createTestUser, db, signedIn } from "../../tests/factories";
import { newPushSubscriber, testVapidConfig } from "../../tests/fakes/push-control";
import { recordingQueue } from "../../tests/messaging-harness";
import { replyWorld } from "../../tests/reply-world";
import { deliverPush, MAX_PUSH_ATTEMPTS } from "./deliver-push.server";
import { notifyPush, type PushDeps } from "./notify-push.server";
import { addConversationNote } from "~/conversations/add-conversation-note.server";
import { mentionHooks } from "~/wiring/mention-hooks.server";
import { onLinkClicked } from "~/wiring/link-click-hooks.server";
import type { PushConfig } from "./push-config";
import { savePushSubscription } from "./save-push-subscription.server";

type Queue = ReturnType<typeof recordingQueue>;

function pushDeps(config: PushConfig | null, queue: Queue, limits = DEFAULT_CAP_LIMITS): PushDeps {
  return {
    db: db(),
    queue,
    now: new Date(),
    config,
    publicBaseUrl: "https://helio.test",
    fetch: (i, init) => fetch(i, init),
    capLimits: async () => limits,
  };
}

/** The push jobs the queue holds, taken out of it (each parsed by the job union, as the consumer would). */
function takePushJobs(queue: Queue): PushJob[] {
  const jobs: PushJob[] = [];
  for (let i = queue.sent.length - 1; i >= 0; i--) {
    const parsed = jobSchema.safeParse(queue.sent[i]);
    if (parsed.success && parsed.data.type === "push") {
      jobs.unshift(parsed.data);
      queue.sent.splice(i, 1);
    }
  }
  return jobs;
}

/** The push job as the consumer runs it, until no push job is left (retries are left to the test). */
async function runPushJobs(deps: PushDeps) {
  const queue = deps.queue as Queue;
  const outcomes: string[] = [];
  for (let round = 0; round < 3; round++) {
    const jobs = takePushJobs(queue);
    if (!jobs.length) break;
    for (const { event } of jobs) {
      if (event.kind === "deliver") outcomes.push((await deliverPush(deps, event)).status);
      else await notifyPush(deps, event);
    }
  }
  return outcomes;
}

async function subscribedUser(config: PushConfig, userId?: number) {
  const id = userId ?? (await createTestUser()).id;
  const browser = await newPushSubscriber();
  const { id: subscriptionId } = await savePushSubscription(db(), config, id, browser, "Chrome on Android", new Date());
  return { userId: id, browser, subscriptionId };
}

const subscriptionRow = (id: number) => db().select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id)).get();

describe("Web Push delivery (RFC 8030/8291/8292) against the loopback push service", () => {
  it("signs with a VAPID JWT the service verifies and encrypts a body it decrypts with the subscriber's key", async () => {
    const config = await testVapidConfig();
    const { browser, subscriptionId } = await subscribedUser(config);
    const deps = pushDeps(config, recordingQueue());
    const notification = { title: "Reply from Rosa", body: "Yes, Tuesday works", url: "/contacts/7", tag: "contact-7" };
    const out = await deliverPush(deps, { kind: "deliver", subscriptionId, attempt: 0, notification });
    expect(out.status).toBe("delivered");
    const [d] = await browser.deliveries();
    expect(d.problem).toBeNull();
    expect(d.answered).toBe(201);
    expect(JSON.parse(d.plaintext!)).toEqual(notification);
    expect(d.claims!.aud).toBe(inject("fakePushServiceUrl"));
    expect(d.claims!.sub).toBe("mailto:ops@helio.test");
    const nowS = Date.now() / 1000;
    expect(d.claims!.exp).toBeGreaterThan(nowS);
    expect(d.claims!.exp).toBeLessThanOrEqual(nowS + 24 * 3600);
    expect(d.urgency).toBe("normal");
    expect((await subscriptionRow(subscriptionId))?.lastSuccessAt).not.toBeNull();
  });

  it("a push signed with another server's key is refused by the service (the check can fail)", async () => {
    const config = await testVapidConfig();
    const other = await testVapidConfig();
    const { browser, subscriptionId } = await subscribedUser(config);
    // The request names another server's public key (`k`): our JWT does not verify with it.
    const forged: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("Authorization", headers.get("Authorization")!.replace(/k=.*$/, `k=${other.publicKey}`));
      return fetch(input, { ...init, headers });
    };
    const out = await deliverPush(
      { ...pushDeps(config, recordingQueue()), fetch: forged },
      {
        kind: "deliver",
        subscriptionId,
        attempt: 0,
        notification: { title: "t", body: "b", url: "/", tag: "x" },
      },
    );
    expect(out.status).toBe("failed");
    expect((await browser.deliveries())[0].problem).toBe("bad JWT signature");
  });

  it("404/410 from the push service deletes the subscription", async () => {
    const config = await testVapidConfig();
    const { browser, subscriptionId } = await subscribedUser(config);
    await browser.gone();
    const deps = pushDeps(config, recordingQueue());
    const job = {
      kind: "deliver" as const,
      subscriptionId,
      attempt: 0,
      notification: { title: "t", body: "b", url: "/", tag: "x" },
    };
    expect((await deliverPush(deps, job)).status).toBe("gone");
    expect(await subscriptionRow(subscriptionId)).toBeUndefined();
  });

  it("429 and 5xx are retried with backoff as new jobs, at most MAX_PUSH_ATTEMPTS times; 400s are not", async () => {
    const config = await testVapidConfig();
    const { browser, subscriptionId } = await subscribedUser(config);
    const queue = recordingQueue();
    const delays: number[] = [];
    const send = queue.send.bind(queue);
    queue.send = async (body: unknown, opts?: QueueSendOptions) => {
      delays.push(opts?.delaySeconds ?? 0);
      return send(body);
    };
    const deps = pushDeps(config, queue);
    await browser.failNext(1, 429, 90);
    await browser.failNext(MAX_PUSH_ATTEMPTS, 503);
    let job: PushJob["event"] = {
      kind: "deliver",
      subscriptionId,
      attempt: 0,
      notification: { title: "t", body: "b", url: "/", tag: "x" },
    };
    const outcomes: string[] = [];
    for (let i = 0; i < MAX_PUSH_ATTEMPTS + 2; i++) {
      outcomes.push((await deliverPush(deps, job as Extract<PushJob["event"], { kind: "deliver" }>)).status);
      const next = takePushJobs(queue)[0];
      if (!next) break;
      job = next.event;
    }
    expect(outcomes).toEqual([...Array(MAX_PUSH_ATTEMPTS - 1).fill("retrying"), "failed"]);
    // Retry-After first, then 30 s × 4^attempt.
    expect(delays).toEqual([90, 120, 480, 1920]);
    expect((await browser.deliveries()).length).toBe(MAX_PUSH_ATTEMPTS);
    expect(await subscriptionRow(subscriptionId)).toBeDefined();
  });
});

describe("What is pushed", () => {
  const made = alertRulesMadeHere();

  async function ownedWorld(now: Date, phone: string | null) {
    const w = await replyWorld(now);
    const owner = await createTestUser({ firstName: "Olive" });
    await db().update(users).set({ phone }).where(eq(users.id, owner.id));
    await db().update(contacts).set({ ownerUserId: owner.id }).where(eq(contacts.id, w.contact.id));
    return { ...w, owner };
  }

  it("a reply in the owner's queue goes to the owner's phones only, with the name and a short preview", async () => {
    const now = new Date();
    const config = await testVapidConfig();
    const w = await ownedWorld(now, null);
    const mine = await subscribedUser(config, w.owner.id);
    const someoneElse = await subscribedUser(config);
    const long = "Yes please call me tomorrow morning about the panels, my roof faces south and gets sun all day long";
    await w.inbound(long);
    const outcomes = await runPushJobs({ ...pushDeps(config, w.queue), now });
    expect(outcomes).toEqual(["delivered"]);
    const [d] = await mine.browser.deliveries();
    const shown = JSON.parse(d.plaintext!);
    expect(shown.title).toBe(`Reply from Rosa ${w.contact.lastName}`);
    expect(shown.body.length).toBeLessThanOrEqual(80);
    expect(long.startsWith(shown.body.slice(0, -1))).toBe(true);
    expect(shown.url).toBe(`/contacts/${w.contact.id}`);
    expect(d.plaintext).not.toContain(w.contact.phone);
    expect(await someoneElse.browser.deliveries()).toEqual([]);
  });

  it("a lead's first picture tells the owner a bill came, in place of the reply's push (the same tag)", async () => {
    const now = new Date();
    const config = await testVapidConfig();
    const w = await ownedWorld(now, null);
    const mine = await subscribedUser(config, w.owner.id);
    const { messageId } = await w.inbound("Here is my bill");
    await runPushJobs({ ...pushDeps(config, w.queue), now });
    await w.queue.send({ v: 1, type: "push", event: { kind: "bill", messageId: messageId! } } satisfies PushJob);
    expect(await runPushJobs({ ...pushDeps(config, w.queue), now })).toEqual(["delivered"]);
    const [reply, bill] = (await mine.browser.deliveries()).map((d) => JSON.parse(d.plaintext!));
    expect(bill.title).toBe(`Bill photo from Rosa ${w.contact.lastName}`);
    expect(bill.url).toBe(`/contacts/${w.contact.id}`);
    expect(bill.tag).toBe(reply.tag);
  });

  it("an @mention in a note goes to the mentioned teammate's phones, naming the author and the contact", async () => {
    const now = new Date();
    const config = await testVapidConfig();
    const w = await ownedWorld(now, null);
    const closer = await createTestUser({ role: "superuser", firstName: "Carl" });
    const mine = await subscribedUser(config, closer.id);
    const ownerPhone = await subscribedUser(config, w.owner.id);
    const queue = recordingQueue();
    await addConversationNote(
      db(),
      { contactId: w.contact.id },
      { note: `@${closer.email} she wants a Tuesday evening visit, can you take it?` },
      { userId: w.owner.id, ipAddress: null },
      now,
      mentionHooks(queue),
    );
    expect(await runPushJobs({ ...pushDeps(config, queue), now })).toEqual(["delivered"]);
    const shown = JSON.parse((await mine.browser.deliveries())[0].plaintext!);
    expect(shown.title).toBe(`Olive mentioned you on Rosa ${w.contact.lastName}`);
    expect(shown.body).toMatch(/^@.* she wants a Tuesday evening visit/);
    expect(shown.url).toBe(`/contacts/${w.contact.id}`);
    // The author is never notified of their own note.
    expect(await ownerPhone.browser.deliveries()).toEqual([]);
  });

  it("a contact's first click on a tracked link goes to the owner's phones: who, and where the link goes", async () => {
    const now = new Date();
    const config = await testVapidConfig();
    const w = await ownedWorld(now, null);
    const mine = await subscribedUser(config, w.owner.id);
    const [click] = await db()
      .insert(linkClicks)
      .values({
        messageId: 1_000_000 + w.contact.id,
        linkIndex: 0,
        url: "https://sun.example/proposal/rosa?token=secret",
        contactId: w.contact.id,
        firstClickedAt: now,
        lastClickedAt: now,
      })
      .returning({ id: linkClicks.id });
    const queue = recordingQueue();
    await onLinkClicked({ db: db(), queue, now }, [click.id]);
    expect(await runPushJobs({ ...pushDeps(config, queue), now })).toEqual(["delivered"]);
    const shown = JSON.parse((await mine.browser.deliveries())[0].plaintext!);
    expect(shown).toMatchObject({
      title: `Rosa ${w.contact.lastName} opened your link`,
      body: "sun.example/proposal/rosa",
      url: `/contacts/${w.contact.id}`,
    });
    // Hot leads off: a click is not pushed.
    await db().insert(pushPreferences).values({ userId: w.owner.id, hotLeads: false, replies: true, updatedAt: now });
    await onLinkClicked({ db: db(), queue, now }, [click.id]);
    expect(await runPushJobs({ ...pushDeps(config, queue), now })).toEqual([]);
  });

  it("the owner who turned replies off gets none", async () => {
    const now = new Date();
    const config = await testVapidConfig();
    const w = await ownedWorld(now, null);
    const mine = await subscribedUser(config, w.owner.id);
    await db().insert(pushPreferences).values({ userId: w.owner.id, hotLeads: true, replies: false, updatedAt: now });
    await w.inbound("Sounds good");
    await runPushJobs({ ...pushDeps(config, w.queue), now });
    expect(await mine.browser.deliveries()).toEqual([]);
  });

  it("a hot-lead alert goes to the contact's owner, urgent; past pushPerUser an hour the rest are held", async () => {
    const now = new Date();
    const config = await testVapidConfig();
    const w = await ownedWorld(now, uniquePhone());
    await db().insert(pushPreferences).values({ userId: w.owner.id, hotLeads: true, replies: false, updatedAt: now });
    const mine = await subscribedUser(config, w.owner.id);
    const { word } = await staffAlertRule(made, now);
    const limits = { ...DEFAULT_CAP_LIMITS, pushPerUser: 2 };
    for (let i = 0; i < 3; i++) {
      await w.inbound(`about the ${word} ${i}`);
      await runPushJobs({ ...pushDeps(config, w.queue, limits), now });
    }
    const got = await mine.browser.deliveries();
    expect(got.map((d) => JSON.parse(d.plaintext!).title)).toEqual([
      `Hot lead: Rosa ${w.contact.lastName}`,
      `Hot lead: Rosa ${w.contact.lastName}`,
    ]);
    expect(got[0].urgency).toBe("high");
    // The owner had a working subscription: no fallback text.
    expect(w.queue.takeSendJobs().length).toBe(0);
  });

  it("a hot lead whose owner has no subscription is texted to the owner's phone through fake Twilio, capped", async () => {
    const now = new Date();
    const repPhone = uniquePhone();
    const w = await ownedWorld(now, repPhone);
    const { word } = await staffAlertRule(made, now);
    const limits = { ...DEFAULT_CAP_LIMITS, alertSmsPerUser: 1 };
    // Push is off on this server (no VAPID keys): the fallback still texts.
    for (let i = 0; i < 2; i++) {
      await w.inbound(`the ${word} question ${i}`);
      await runPushJobs({ ...pushDeps(null, w.queue, limits), now });
      await sendMessages(w.queue.takeSendJobs(), w.deps);
    }
    const texts = (await w.twilio.calls()).filter((c) => c.to === repPhone);
    expect(texts).toHaveLength(1);
    expect(texts[0].body).toContain(`Helio hot lead: Rosa ${w.contact.lastName}`);
    expect(texts[0].body).toContain(`https://helio.test/contacts/${w.contact.id}`);
    // Staff mail, not a customer message: no conversation for the rep's number.
    const conv = await db().get<{ n: number }>(sql`SELECT count(*) AS n FROM conversations WHERE phone = ${repPhone}`);
    expect(conv?.n).toBe(0);
  });
});

describe("Subscriptions", () => {
  it("refuses http and private endpoints unless loopback is allowed, and refuses all when push is off", async () => {
    const user = await createTestUser();
    const config = await testVapidConfig();
    const browser = await newPushSubscriber();
    const strict = { ...config, allowLoopback: false };
    await expect(savePushSubscription(db(), strict, user.id, browser, "x", new Date())).rejects.toMatchObject({
      code: "validation",
    });
    await expect(
      savePushSubscription(db(), strict, user.id, { ...browser, endpoint: "https://10.0.0.1/push/1" }, "x", new Date()),
    ).rejects.toMatchObject({ code: "validation" });
    await expect(savePushSubscription(db(), null, user.id, browser, "x", new Date())).rejects.toMatchObject({
      code: "unavailable",
    });
    await savePushSubscription(
      db(),
      strict,
      user.id,
      { ...browser, endpoint: "https://fcm.googleapis.com/fcm/send/abc" },
      "x",
      new Date(),
    );
  });

  it("keeps at most 10 per user, dropping the oldest", async () => {
    const user = await createTestUser();
    const config = await testVapidConfig();
    const browser = await newPushSubscriber();
    for (let i = 0; i < 12; i++)
      await savePushSubscription(
        db(),
        config,
        user.id,
        { ...browser, endpoint: `${browser.endpoint}?d=${i}` },
        "x",
        new Date(),
      );
    const rows = await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id));
    expect(rows.map((r) => r.endpoint.split("?d=")[1]).sort((a, b) => +a - +b)).toEqual([
      "2",
      "3",
      "4",
      "5",
      "6",
      "7",
      "8",
      "9",
      "10",
      "11",
    ]);
  });
});

describe("The installable app through the Worker", () => {
  it("serves the manifest as application/manifest+json with the icons, linked from every page", async () => {
    const res = await call("/manifest.webmanifest");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/manifest\+json/);
    const m = (await res.json()) as { name: string; display: string; start_url: string; icons: { purpose: string }[] };
    expect(m).toMatchObject({ name: "Helio", display: "standalone", start_url: "/" });
    expect(m.icons.map((i) => i.purpose)).toContain("maskable");
    const login = await (await call("/login")).text();
    expect(login).toContain('rel="manifest" href="/manifest.webmanifest"');
  });

  it("serves /sw.js at the root as JavaScript, no-cache, with a CSP that lets it reach this origin", async () => {
    const res = await call("/sw.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/javascript/);
    expect(res.headers.get("Cache-Control")).toBe("no-cache");
    expect(res.headers.get("Content-Security-Policy")).toBe("default-src 'self'");
    expect(await res.text()).toContain('addEventListener("fetch"');
  });

  it('logout answers Clear-Site-Data: "cache"', async () => {
    const { cookie } = await signedIn();
    const res = await call("/logout", { method: "POST", cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Clear-Site-Data")).toBe('"cache"');
  });

  it("the account screen says push is off without VAPID keys, and its settings save as a plain form", async () => {
    const { user, cookie } = await signedIn();
    const page = await (await call("/account", { cookie })).text();
    expect(page).toContain("Push notifications are not set up on this server");
    const form = new URLSearchParams({ intent: "preferences", hotLeads: "true" }); // replies unticked
    const res = await call("/account/push", {
      method: "POST",
      cookie,
      body: form,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/account");
    const prefs = await db().select().from(pushPreferences).where(eq(pushPreferences.userId, user.id)).get();
    expect(prefs).toMatchObject({ hotLeads: true, replies: false });
    // With push off, a subscription is refused (a toast on the account screen).
    const sub = await newPushSubscriber();
    const refused = await call("/account/push", {
      method: "POST",
      cookie,
      body: new URLSearchParams({ intent: "subscribe", endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth }),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(refused.status).toBe(302);
    expect(await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id))).toEqual([]);
  });
});
