import { HOUSEKEEPING_EVERY } from "~/jobs/run-scheduled-tick.server";
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "./app";
import { sessions } from "~/db/schema";
import { eq } from "drizzle-orm";
import { call, createTestUser, db, loginAs, ORIGIN } from "../tests/factories";
import { measuringD1 } from "../tests/bound-values";
import { sendJobsFor } from "~/jobs/jobs";

describe("session gate and pages", () => {
  it("sends anyone unauthenticated to the login screen, whatever the path", async () => {
    for (const path of ["/", "/contacts", "/no-such-page", "/user-analytics"]) {
      const res = await call(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("Location")).toBe("/login");
    }
    const login = await call("/login");
    expect(login.status).toBe(200);
    const html = await login.text();
    for (const text of [
      "Solar Sales Communication Platform",
      "Enter your email",
      "Enter your password",
      "Sign In",
      "Need credentials? Contact your administrator.",
    ]) {
      expect(html).toContain(text);
    }
  });

  it("renders the shared layout with the user's name, ROLE, the twelve items in order and the route title", async () => {
    const u = await createTestUser({ firstName: "Dana", lastName: "Kim", role: "superuser" });
    const cookie = await loginAs(u);
    const html = await (await call("/contacts", { cookie })).text();
    expect(html).toContain("Dana Kim");
    expect(html).toContain("SUPERUSER");
    expect(html).toContain("Connect with clarity");
    const labels = [
      "Dashboard",
      "Campaigns",
      "Messages",
      "Contacts",
      "Testing",
      "Idea Generator",
      "Auto-Responder",
      "Smart Alerts",
      "Test Alerts",
      "Analytics",
      "User Analytics",
      "Knowledge Base",
    ];
    const nav = html.slice(html.indexOf('aria-label="Main navigation"'), html.indexOf("</nav>"));
    const positions = labels.map((l) => nav.indexOf(`</span>${l}</a>`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(nav).toMatch(/aria-current="page"[^>]*>.*?Contacts<\/a>/s);
    expect(html).toMatch(/data-testid="header-title">Contacts</);
  });

  it("shows 404 Page Not Found for an unknown path when signed in", async () => {
    const cookie = await loginAs(await createTestUser());
    const res = await call("/compose", { cookie });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("404 Page Not Found");
  });

  it("logs out by form post: the session row is deleted and a flash toast follows the redirect", async () => {
    const u = await createTestUser();
    const cookie = await loginAs(u);
    const res = await call("/logout", { method: "POST", cookie, body: new URLSearchParams() });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login");
    expect(await db().select().from(sessions).where(eq(sessions.userId, u.id))).toHaveLength(0);
    const toast = res.headers
      .getSetCookie()
      .find((c) => c.startsWith("helio_toast="))!
      .split(";")[0];
    const page = await (await call("/login", { headers: { Cookie: toast } })).text();
    expect(page).toContain("Logged out successfully");
  });

  it("logs in by form post with a full document redirect and the success toast", async () => {
    const u = await createTestUser();
    const res = await call("/login", {
      method: "POST",
      body: new URLSearchParams({ email: u.email, password: u.password }),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(res.headers.get("X-Remix-Reload-Document")).toBe("true");
    const failed = await call("/login", {
      method: "POST",
      body: new URLSearchParams({ email: u.email, password: "wrong" }),
    });
    expect(failed.status).toBe(401);
    expect(await failed.text()).toContain("Invalid email or password");
    const empty = await call("/login", { method: "POST", body: new URLSearchParams({ email: "", password: "" }) });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Please enter both email and password");
  });
});

describe("edge security", () => {
  it("refuses unsafe cross-origin requests (CSRF) for forms and JSON", async () => {
    const u = await createTestUser();
    const form = await call("/login", {
      method: "POST",
      headers: { Origin: "https://evil.example" },
      body: new URLSearchParams({ email: u.email, password: u.password }),
    });
    expect(form.status).toBe(403);
    const json = await call("/api/auth/login", {
      method: "POST",
      headers: { Origin: "https://evil.example" },
      json: { email: u.email, password: u.password },
    });
    expect(json.status).toBe(403);
    expect(await json.json()).toEqual({ message: "Cross-origin request refused" });
    const fetchSite = await call("/api/auth/logout", {
      method: "POST",
      headers: { Origin: "", "Sec-Fetch-Site": "cross-site" },
    });
    expect(fetchSite.status).toBe(403);
    const same = await call("/api/auth/login", {
      method: "POST",
      headers: { Origin: ORIGIN },
      json: { email: u.email, password: u.password },
    });
    expect(same.status).toBe(200);
  });

  it("sets CSP with a nonce on documents and the other security headers everywhere", async () => {
    const res = await call("/login");
    const csp = res.headers.get("Content-Security-Policy")!;
    const nonce = /'nonce-([a-f0-9]+)'/.exec(csp)![1];
    expect(csp).toContain("frame-ancestors 'none'");
    expect(await res.text()).toContain(`nonce="${nonce}"`);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    const api = await call("/api/auth/me");
    expect(api.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("answers unknown /api paths with JSON: 401 without a session, 404 with one", async () => {
    expect((await call("/api/nope")).status).toBe(401);
    const cookie = await loginAs(await createTestUser());
    const res = await call("/api/nope", { cookie });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: "Not found" });
  });
});

describe("scheduled and queue handlers", () => {
  it("the cron tick purges expired sessions on its housekeeping minute, and only then", async () => {
    const u = await createTestUser();
    const old = new Date("2020-01-01T00:00:00Z");
    await db()
      .insert(sessions)
      .values({ id: "expired-" + u.id, userId: u.id, createdAt: old, lastSeenAt: old, expiresAt: old });
    const left = async () => (await db().select().from(sessions).where(eq(sessions.userId, u.id))).length;
    // Sessions are purged on minute 0 of every HOUSEKEEPING_EVERY (run-scheduled-tick.server.ts).
    const cycle = Math.floor(Date.now() / (60_000 * HOUSEKEEPING_EVERY)) * 60_000 * HOUSEKEEPING_EVERY;
    for (const [minute, expected] of [
      [1, 1],
      [0, 0],
    ] as const) {
      const ctx = createExecutionContext();
      const scheduledTime = new Date(cycle + minute * 60_000 + 1_000);
      await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime }), env);
      await waitOnExecutionContext(ctx);
      expect(await left(), `minute ${minute}`).toBe(expected);
    }
  });

  it("acks (does not retry) queue messages of unknown shape", async () => {
    const batch = createMessageBatch("helio-jobs", [
      { id: "a", timestamp: new Date(), attempts: 1, body: { hello: "world" } },
      { id: "b", timestamp: new Date(), attempts: 1, body: { v: 99, type: "send" } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.ackAll).toBe(true); // nothing to retry: the batch acked in one call
    expect(result.retryMessages).toEqual([]);
  });
});

describe("dead-letter queue", () => {
  it("fails every message of 5 dead send jobs (125 ids) and tells the final-failure hooks ≤ 100 at a time", async () => {
    const t = Date.now();
    const key = "dlq-many:" + crypto.randomUUID();
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 125)
       INSERT INTO messages (channel, direction, kind, status, phone, content, idempotency_key, is_marketing, is_test, attempts, scheduled_at, created_at, updated_at)
       SELECT 'sms', 'outbound', 'broadcast', 'queued', '+16025552368', 'x', ? || i, 1, 0, 3, ?, ?, ? FROM n`,
    )
      .bind(key, t, t, t)
      .run();
    const { results } = await env.DB.prepare("SELECT id FROM messages WHERE idempotency_key LIKE ? ORDER BY id")
      .bind(key + "%")
      .all<{ id: number }>();
    const ids = results.map((r) => r.id);
    expect(ids).toHaveLength(125);
    const batch = createMessageBatch(
      "helio-jobs-dlq",
      sendJobsFor(ids).map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body })),
    );
    const measured = measuringD1(env.DB);
    await worker.queue(batch, { ...env, DB: measured.d1 } as never);
    const failed = await env.DB.prepare(
      "SELECT count(*) AS n FROM messages WHERE idempotency_key LIKE ? AND status = 'failed'",
    )
      .bind(key + "%")
      .first<{ n: number }>();
    expect(failed?.n).toBe(125);
    // The hooks read the failed messages (message.failed webhooks, carrier filtering): never over D1's 100 parameters.
    expect(measured.seen.maxParams).toBeLessThanOrEqual(100);
  });

  it("fails sends still queued (every id a job names, v1 jobs too) and imports still running, and acks everything", async () => {
    const t = Date.now();
    const queuedMessage = async () => {
      const key = "dlq:" + crypto.randomUUID();
      await env.DB.prepare(
        `INSERT INTO messages (channel, direction, kind, status, phone, content, idempotency_key, is_marketing, is_test, attempts, scheduled_at, created_at, updated_at)
         VALUES ('sms', 'outbound', 'test', 'queued', '+16025552368', 'x', ?, 0, 1, 3, ?, ?, ?)`,
      )
        .bind(key, t, t, t)
        .run();
      return (await env.DB.prepare("SELECT id FROM messages WHERE idempotency_key = ?")
        .bind(key)
        .first<{ id: number }>())!.id;
    };
    const [one, two, legacy] = [await queuedMessage(), await queuedMessage(), await queuedMessage()];
    const batch = createMessageBatch("helio-jobs-dlq", [
      { id: "d1", timestamp: new Date(), attempts: 1, body: { v: 2, type: "send", messageIds: [one, two] } },
      { id: "d2", timestamp: new Date(), attempts: 1, body: { nonsense: true } },
      { id: "d3", timestamp: new Date(), attempts: 1, body: { v: 1, type: "send", messageId: legacy } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    expect((await getQueueResult(batch, ctx)).explicitAcks.sort()).toEqual(["d1", "d2", "d3"]);
    for (const id of [one, two, legacy]) {
      const row = await env.DB.prepare("SELECT status, error_message FROM messages WHERE id = ?")
        .bind(id)
        .first<{ status: string; error_message: string }>();
      expect(row).toEqual({ status: "failed", error_message: "gave up after repeated delivery failures" });
    }
  });
});
