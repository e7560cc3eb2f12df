import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog, sessions } from "~/db/schema";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { logIn } from "./login.server";
import { findSessionUser } from "./session.server";

// Issue 23 (audit, ASVS 5 V7.3 / V14.3): 7-day sessions; no Cache-Control on signed-in responses; no way to see or end
// one's other sessions.

describe("session lifetime (decision 002, update 2026-11-26)", () => {
  const MIN = 60_000;
  const HOUR = 60 * MIN;

  it("ends after 30 minutes without a request", async () => {
    const u = await createTestUser();
    const t0 = new Date("2026-11-26T08:00:00Z");
    const { token } = await logIn(db(), { email: u.email, password: u.password, ipAddress: null, userAgent: null }, t0);
    expect(await findSessionUser(db(), token, new Date(t0.getTime() + 29 * MIN))).not.toBeNull();
    // The touch above moved last-seen to +29 min: 30 minutes after that, it is over.
    expect(await findSessionUser(db(), token, new Date(t0.getTime() + 59 * MIN + 1))).toBeNull();
  });

  it("ends 12 hours after sign-in even when used all along, and the cookie says so too", async () => {
    const u = await createTestUser();
    const t0 = new Date("2026-11-26T08:00:00Z");
    const { token } = await logIn(db(), { email: u.email, password: u.password, ipAddress: null, userAgent: null }, t0);
    for (let t = 10 * MIN; t < 12 * HOUR; t += 10 * MIN)
      expect(await findSessionUser(db(), token, new Date(t0.getTime() + t)), `+${t / MIN} min`).not.toBeNull();
    expect(await findSessionUser(db(), token, new Date(t0.getTime() + 12 * HOUR))).toBeNull();

    const res = await call("/api/auth/login", { method: "POST", json: { email: u.email, password: u.password } });
    const cookie = res.headers.getSetCookie().find((c) => c.includes("helio_session="))!;
    expect(cookie).toMatch(/Max-Age=43200(;|$)/);
  });
});

describe("Cache-Control: no-store on every signed-in response (set once, in the Worker's request wrapper)", () => {
  it("a document, a ?_data loader response, an /api JSON answer and a download", async () => {
    const cookie = await loginAs(await createTestUser());
    for (const path of [
      "/contacts",
      "/contacts?_data=" + encodeURIComponent("routes/_app+/_contacts+/contacts"),
      "/api/contacts",
      "/api/templates",
      "/contacts/template.csv",
      "/account",
    ]) {
      const res = await call(path, { cookie });
      await res.arrayBuffer();
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Cache-Control"), path).toBe("no-store");
    }
  });
});

describe("Your sessions (Account screen)", () => {
  const ua = (s: string) => ({ "User-Agent": s });
  const loginWith = async (u: { email: string; password: string }, agent: string, ip: string) => {
    const res = await call("/api/auth/login", {
      method: "POST",
      json: u,
      headers: { ...ua(agent), "CF-Connecting-IP": ip },
    });
    expect(res.status).toBe(200);
    return res.headers
      .getSetCookie()
      .find((c) => c.includes("helio_session="))!
      .split(";")[0];
  };
  const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
  const IPHONE =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";

  it("lists the user's sessions with device, IP and this one marked; revokes one, then all others", async () => {
    const u = await createTestUser();
    const mine = await loginWith(u, FIREFOX, "203.0.113.10");
    const phone = await loginWith(u, IPHONE, "203.0.113.11");
    const third = await loginWith(u, FIREFOX, "203.0.113.12");
    const other = await loginAs(await createTestUser()); // someone else's session is never listed

    const html = await (await call("/account", { cookie: mine })).text();
    expect(html).toContain("Your sessions");
    expect(html).toContain("Firefox on Linux");
    expect(html).toContain("Safari on iOS");
    expect(html).toContain("203.0.113.11");
    expect(html.match(/data-testid="session-current"/g)).toHaveLength(1);
    expect(html.match(/data-testid="session(-current)?"/g)).toHaveLength(3);

    const rows = await db().select().from(sessions).where(eq(sessions.userId, u.id));
    const phoneRow = rows.find((r) => r.ipAddress === "203.0.113.11")!;
    const revoke = await call("/account", {
      method: "POST",
      cookie: mine,
      body: new URLSearchParams({ intent: "revoke-session", sessionId: phoneRow.id }),
    });
    expect(revoke.status).toBe(302);
    expect((await call("/api/auth/me", { cookie: phone })).status).toBe(401);
    expect((await call("/api/auth/me", { cookie: third })).status).toBe(200);

    // Another user's session id cannot be revoked from my account.
    const otherRow = (await db().select().from(sessions).all()).find((r) => r.userId !== u.id)!;
    expect(
      (
        await call("/account", {
          method: "POST",
          cookie: mine,
          body: new URLSearchParams({ intent: "revoke-session", sessionId: otherRow.id }),
        })
      ).status,
    ).toBe(404);

    const all = await call("/account", {
      method: "POST",
      cookie: mine,
      body: new URLSearchParams({ intent: "revoke-others" }),
    });
    expect(all.status).toBe(302);
    expect((await call("/api/auth/me", { cookie: third })).status).toBe(401);
    expect((await call("/api/auth/me", { cookie: mine })).status).toBe(200);
    expect((await call("/api/auth/me", { cookie: other })).status).toBe(200);
    const acts = await db()
      .select({ action: activityLog.action })
      .from(activityLog)
      .where(eq(activityLog.userId, u.id));
    expect(acts.map((a) => a.action)).toEqual(expect.arrayContaining(["revoke_session", "revoke_other_sessions"]));
  });

  it("changing the password signs out the other sessions and keeps this one", async () => {
    const u = await createTestUser();
    const mine = await loginWith(u, FIREFOX, "203.0.113.20");
    const elsewhere = await loginWith(u, IPHONE, "203.0.113.21");
    const res = await call("/account/password", {
      method: "POST",
      cookie: mine,
      body: new URLSearchParams({
        currentPassword: u.password,
        newPassword: "a much longer secret",
        confirmPassword: "a much longer secret",
      }),
    });
    expect(res.status).toBe(302);
    expect((await call("/api/auth/me", { cookie: elsewhere })).status).toBe(401);
    expect((await call("/api/auth/me", { cookie: mine })).status).toBe(200);
  });
});
