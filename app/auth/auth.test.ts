import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog, loginHistory, sessions, users } from "~/db/schema";
import { call, createTestUser, db, loginAs, sessionCookieFrom } from "../../tests/factories";
import { AppError } from "~/lib/app-error";
import { logIn } from "./login.server";
import { findSessionUser, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "./session.server";
import { sha256Hex } from "~/lib/crypto.server";

/** 100 failed sign-ins written straight into login_history (20 rows a statement); `nth(i)` says who, where, when. */
async function hundredFailures(nth: (i: number) => { email: string; ipAddress: string; createdAt: Date }) {
  const rows = Array.from({ length: 100 }, (_, i) => ({ ...nth(i), success: false }));
  for (let i = 0; i < rows.length; i += 20)
    await db()
      .insert(loginHistory)
      .values(rows.slice(i, i + 20));
}

/** 100 failed sign-ins from `ip` in the 100 s before `t0`, each for another made-up account. */
const failedSignIns = (ip: string, prefix: string, t0: Date) =>
  hundredFailures((i) => ({
    email: `${prefix}${i}@example.com`,
    ipAddress: ip,
    createdAt: new Date(t0.getTime() - 1000 * i),
  }));

describe("POST /api/auth/login", () => {
  it("signs in, sets an HttpOnly SameSite=Lax Secure cookie and stores only the token's hash", async () => {
    const u = await createTestUser();
    const res = await call("/api/auth/login", {
      method: "POST",
      json: { email: u.email.toUpperCase(), password: u.password },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ user: { email: u.email, role: "user" } });
    const setCookie = res.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/__Host-helio_session=[A-Za-z0-9_-]{40,}/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Secure/);
    const token = sessionCookieFrom(res).split("=")[1];
    const rows = await db().select().from(sessions).where(eq(sessions.userId, u.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe(await sha256Hex(token));
    expect(rows[0].id).not.toContain(token);
  });

  it("records login history, the login counter and a `login` activity entry with the IP", async () => {
    const u = await createTestUser();
    await call("/api/auth/login", {
      method: "POST",
      json: { email: u.email, password: u.password },
      headers: { "CF-Connecting-IP": "203.0.113.7" },
    });
    const history = await db().select().from(loginHistory).where(eq(loginHistory.userId, u.id));
    expect(history).toMatchObject([{ success: true, ipAddress: "203.0.113.7" }]);
    const acts = await db().select().from(activityLog).where(eq(activityLog.userId, u.id));
    expect(acts.map((a) => a.action)).toEqual(["login"]);
    const row = await db().select().from(users).where(eq(users.id, u.id)).get();
    expect(row?.loginCount).toBe(1);
    expect(row?.lastLoginAt).toBeInstanceOf(Date);
  });

  it("gives a new token on every login", async () => {
    const u = await createTestUser();
    expect(await loginAs(u)).not.toBe(await loginAs(u));
  });

  it("answers 401 with a message for a wrong password and 400 for missing fields", async () => {
    const u = await createTestUser();
    const bad = await call("/api/auth/login", { method: "POST", json: { email: u.email, password: "nope" } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ message: "Invalid email or password" });
    const missing = await call("/api/auth/login", { method: "POST", json: { email: u.email } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ message: "Please enter both email and password" });
    const notJson = await call("/api/auth/login", {
      method: "POST",
      body: "email=x",
      headers: { "Content-Type": "text/plain" },
    });
    expect(notJson.status).toBe(415);
  });

  it("refuses an inactive user", async () => {
    const u = await createTestUser({ isActive: false });
    const res = await call("/api/auth/login", { method: "POST", json: { email: u.email, password: u.password } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toMatch(/inactive/);
  });

  it("backs off after five failures for an account, even with the right password", async () => {
    const u = await createTestUser();
    for (let i = 0; i < 5; i++) {
      const r = await call("/api/auth/login", { method: "POST", json: { email: u.email, password: `wrong${i}` } });
      expect(r.status).toBe(401);
    }
    const locked = await call("/api/auth/login", { method: "POST", json: { email: u.email, password: u.password } });
    expect(locked.status).toBe(429);
    expect(((await locked.json()) as { message: string }).message).toMatch(
      /Too many failed login attempts\. Please try again in 1 minute\./,
    );
  });

  it("lets the account in again once the back-off has passed, and a success resets it", async () => {
    const u = await createTestUser();
    const t0 = new Date("2026-11-21T10:00:00Z");
    const input = { email: u.email, password: "bad", ipAddress: "198.51.100.1", userAgent: null };
    for (let i = 0; i < 5; i++) await expect(logIn(db(), input, t0)).rejects.toMatchObject({ status: 401 });
    await expect(
      logIn(db(), { ...input, password: u.password }, new Date(t0.getTime() + 10_000)),
    ).rejects.toMatchObject({ status: 429 });
    const ok = await logIn(db(), { ...input, password: u.password }, new Date(t0.getTime() + 31_000));
    expect(ok.user!.id).toBe(u.id);
    await expect(logIn(db(), input, new Date(t0.getTime() + 32_000))).rejects.toMatchObject({ status: 401 });
  });

  // Issue 23 (audit): after 100 failures from one IP a right password was refused for every unknown browser there.
  it("100 failures from one IP for other accounts do not refuse a fresh browser's right password on that IP", async () => {
    const t0 = new Date("2026-11-21T12:00:00Z");
    const ip = "192.0.2.99";
    await failedSignIns(ip, "spray", t0);
    const u = await createTestUser();
    const ok = await logIn(db(), { email: u.email, password: u.password, ipAddress: ip, userAgent: null }, t0);
    expect(ok.user!.id).toBe(u.id);
  });

  it("the same through the Worker: 100 wrong passwords for other accounts from one IP, then a fresh browser signs in there", async () => {
    const ip = "192.0.2.123";
    const victims = await Promise.all(Array.from({ length: 25 }, () => createTestUser()));
    for (let i = 0; i < 100; i++) {
      const r = await call("/api/auth/login", {
        method: "POST",
        json: { email: victims[i % 25].email, password: `guess-${i}` },
        headers: { "CF-Connecting-IP": ip },
      });
      expect([401, 429]).toContain(r.status);
    }
    const u = await createTestUser();
    const res = await call("/api/auth/login", {
      method: "POST",
      json: { email: u.email, password: u.password },
      headers: { "CF-Connecting-IP": ip },
    });
    expect(res.status).toBe(200);
  });

  it("a busy network still limits guessing: each account gets 3 failures an hour from it, other networks are unaffected", async () => {
    const t0 = new Date("2026-11-21T13:00:00Z");
    const ip = "192.0.2.77";
    await failedSignIns(ip, "stuff", t0);
    const u = await createTestUser();
    const from = (ipAddress: string, password: string, at: number) =>
      logIn(db(), { email: u.email, password, ipAddress, userAgent: null }, new Date(t0.getTime() + at));
    for (let i = 0; i < 3; i++) await expect(from(ip, `wrong-${i}`, i)).rejects.toMatchObject({ status: 401 });
    // The fourth guess from the busy network is refused before the password is checked — even the right one.
    await expect(from(ip, u.password, 10)).rejects.toSatisfy(
      (e) => e instanceof AppError && e.code === "rate_limited" && /this network/.test(e.message),
    );
    // From another network the account is not backed off yet (3 < 5 failures): the owner gets in.
    expect((await from("198.51.100.200", u.password, 20)).user!.id).toBe(u.id);
    // A stuffing run over unknown emails from the busy network: every one is answered, none gets a fourth guess.
    for (let i = 0; i < 3; i++)
      await expect(
        logIn(db(), { email: "nobody@example.com", password: `p${i}`, ipAddress: ip, userAgent: null }, t0),
      ).rejects.toMatchObject({ status: 401 });
    await expect(
      logIn(db(), { email: "nobody@example.com", password: "p4", ipAddress: ip, userAgent: null }, t0),
    ).rejects.toMatchObject({ status: 429 });
  });

  it("100 failures on one account still back that account off, whatever the network", async () => {
    const t0 = new Date("2026-11-21T14:00:00Z");
    const u = await createTestUser();
    await hundredFailures((i) => ({
      email: u.email,
      ipAddress: `203.0.113.${i % 200}`,
      createdAt: new Date(t0.getTime() - 30_000 * i),
    }));
    await expect(
      logIn(db(), { email: u.email, password: u.password, ipAddress: "198.51.100.9", userAgent: null }, t0),
    ).rejects.toSatisfy(
      (e) => e instanceof AppError && e.code === "rate_limited" && /for this account/.test(e.message),
    );
  });
});

describe("GET /api/auth/me and POST /api/auth/logout", () => {
  it("returns the current user, then 401 once logged out (the old cookie is dead)", async () => {
    const u = await createTestUser({ firstName: "Maya", lastName: "Ortiz", role: "superuser" });
    const cookie = await loginAs(u);
    const me = await call("/api/auth/me", { cookie });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({
      id: u.id,
      email: u.email,
      firstName: "Maya",
      lastName: "Ortiz",
      role: "superuser",
    });

    const out = await call("/api/auth/logout", { method: "POST", cookie });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().join()).toMatch(/Max-Age=0/);
    const after = await call("/api/auth/me", { cookie });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ message: "Unauthorized" });
    const acts = await db().select().from(activityLog).where(eq(activityLog.userId, u.id));
    expect(acts.map((a) => a.action).sort()).toEqual(["login", "logout"]);
  });

  it("answers 401 without a session", async () => {
    expect((await call("/api/auth/me")).status).toBe(401);
    expect((await call("/api/auth/logout", { method: "POST" })).status).toBe(401);
  });

  it("refuses a session whose user was deactivated after signing in", async () => {
    const u = await createTestUser();
    const cookie = await loginAs(u);
    await db().update(users).set({ isActive: false }).where(eq(users.id, u.id));
    expect((await call("/api/auth/me", { cookie })).status).toBe(401);
  });
});

describe("session expiry", () => {
  it("expires after the idle limit and after the absolute limit", async () => {
    const u = await createTestUser();
    const t0 = new Date("2026-11-21T08:00:00Z");
    const { token } = await logIn(db(), { email: u.email, password: u.password, ipAddress: null, userAgent: null }, t0);
    expect(await findSessionUser(db(), token, new Date(t0.getTime() + SESSION_IDLE_MS - 1000))).not.toBeNull();
    // Active use keeps it alive past the idle limit counted from login…
    let t = t0.getTime();
    while (t + SESSION_IDLE_MS / 2 < t0.getTime() + SESSION_ABSOLUTE_MS) {
      t += SESSION_IDLE_MS / 2;
      expect(await findSessionUser(db(), token, new Date(t))).not.toBeNull();
    }
    // …but never past the absolute limit.
    expect(await findSessionUser(db(), token, new Date(t0.getTime() + SESSION_ABSOLUTE_MS))).toBeNull();

    const second = await logIn(db(), { email: u.email, password: u.password, ipAddress: null, userAgent: null }, t0);
    expect(await findSessionUser(db(), second.token, new Date(t0.getTime() + SESSION_IDLE_MS + 1))).toBeNull();
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").bind(u.id).first("n")).toBe(0);
  });
});
