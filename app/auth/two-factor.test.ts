import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog, loginHistory, recoveryCodes, sessions, users } from "~/db/schema";
import { call, createTestUser, db, loginAs, sessionCookieFrom } from "../../tests/factories";
import { completeTwoFactorSignIn, logIn } from "./login.server";
import { confirmTwoFactor, startTwoFactorEnrolment } from "./manage-two-factor.server";
import { base32Decode, hotp, totpStep } from "./totp";

// Issue 23: TOTP two-factor (RFC 6238), recovery codes, a two-step sign-in that works without JavaScript.

const codeAt = async (secret: string, at: Date | number, offset = 0) =>
  hotp(base32Decode(secret)!, totpStep(at) + offset);
const secretOf = async (id: number) =>
  (await db().select({ s: users.totpSecret }).from(users).where(eq(users.id, id)).get())!.s!;
const cookieNamed = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .find((c) => c.includes(`${name}=`))
    ?.split(";")[0] ?? null;
const form = (fields: Record<string, string>) => new URLSearchParams(fields);

/** Two-factor on, confirmed an hour ago (so any code of "now" is a later step than the one spent). */
async function withTwoFactor(overrides: Parameters<typeof createTestUser>[0] = {}) {
  const u = await createTestUser(overrides);
  await startTwoFactorEnrolment(db(), u.id);
  const secret = await secretOf(u.id);
  const earlier = new Date(Date.now() - 3600_000);
  const recovery = await confirmTwoFactor(
    db(),
    u.id,
    await codeAt(secret, earlier),
    { userId: u.id, ipAddress: null },
    earlier,
  );
  return { ...u, secret, recovery };
}

describe("enrolment from the Account screen", () => {
  it("starts with a secret shown as text and as an otpauth:// URI, is off until a code confirms it, then shows 10 recovery codes once", async () => {
    const u = await createTestUser();
    const cookie = await loginAs(u);
    expect(await (await call("/account", { cookie })).text()).toMatch(/data-testid="two-factor-status">.*Off/s);
    expect(
      (await call("/account/two-factor", { method: "POST", cookie, body: form({ intent: "start" }) })).status,
    ).toBe(302);
    const page = await (await call("/account/two-factor", { cookie })).text();
    const secret = await secretOf(u.id);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(page.replace(/<!-- -->/g, "")).toContain(secret.replace(/(.{4})/g, "$1 ").trim());
    expect(page).toContain(`otpauth://totp/Helio:${encodeURIComponent(u.email)}?secret=${secret}&amp;issuer=Helio`);
    // Not on yet: signing in needs only the password.
    expect(
      (await call("/api/auth/login", { method: "POST", json: { email: u.email, password: u.password } })).status,
    ).toBe(200);

    const wrong = await call("/account/two-factor", {
      method: "POST",
      cookie,
      body: form({ intent: "confirm", code: "000000" }),
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("That code does not match");
    const ok = await call("/account/two-factor", {
      method: "POST",
      cookie,
      body: form({ intent: "confirm", code: await codeAt(secret, Date.now()) }),
    });
    expect(ok.status).toBe(200);
    const html = await ok.text();
    const codes = [...html.matchAll(/<li>([a-z2-7]{5}-[a-z2-7]{5})<\/li>/g)].map((m) => m[1]);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    // Stored hashed only; shown once (the screen does not show them again).
    const rows = await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, u.id));
    expect(rows).toHaveLength(10);
    for (const c of codes) expect(rows.some((r) => r.codeHash.includes(c.replace("-", "")))).toBe(false);
    expect(await (await call("/account/two-factor", { cookie })).text()).not.toContain(codes[0]);
    expect(await (await call("/account", { cookie })).text()).toMatch(/data-testid="two-factor-status">.*On/s);
    const acts = await db().select({ a: activityLog.action }).from(activityLog).where(eq(activityLog.userId, u.id));
    expect(acts.map((a) => a.a)).toContain("enable_two_factor");
  });
});

describe("signing in with two-factor on (the form, without JavaScript)", () => {
  it("the password gives a short-lived pending cookie, not a session; the code then signs in; the same code never works twice", async () => {
    const u = await withTwoFactor();
    const step1 = await call("/login", { method: "POST", body: form({ email: u.email, password: u.password }) });
    expect(step1.status).toBe(302);
    expect(step1.headers.get("Location")).toBe("/login");
    expect(cookieNamed(step1, "helio_session")).toBeNull();
    const pending = cookieNamed(step1, "helio_2fa")!;
    expect(step1.headers.getSetCookie().find((c) => c.includes("helio_2fa="))).toMatch(/HttpOnly.*Max-Age=300/);
    // Not a session: the app still sends it to the login screen, which now asks for the code.
    expect((await call("/contacts", { cookie: pending })).headers.get("Location")).toBe("/login");
    expect((await call("/api/auth/me", { cookie: pending })).status).toBe(401);
    const codePage = await (await call("/login", { cookie: pending })).text();
    expect(codePage).toContain('data-testid="two-factor-form"');
    expect(codePage).toContain("Authentication code");
    // "Use a different account" drops the pending sign-in.
    const cancel = await call("/login", { method: "POST", cookie: pending, body: form({ intent: "cancel" }) });
    expect(cancel.headers.getSetCookie().find((c) => c.includes("helio_2fa="))).toMatch(/Max-Age=0/);

    const bad = await call("/login", {
      method: "POST",
      cookie: pending,
      body: form({ intent: "code", code: "123456" }),
    });
    expect(bad.status).toBe(401);
    expect(await bad.text()).toContain("Invalid authentication code");
    expect(cookieNamed(bad, "helio_session")).toBeNull();

    const code = await codeAt(u.secret, Date.now());
    const ok = await call("/login", { method: "POST", cookie: pending, body: form({ intent: "code", code }) });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/");
    const session = sessionCookieFrom(ok);
    expect((await call("/api/auth/me", { cookie: session })).status).toBe(200);
    expect(ok.headers.getSetCookie().find((c) => c.includes("helio_2fa="))).toMatch(/Max-Age=0/);
    expect(cookieNamed(ok, "helio_device")).not.toBeNull();

    // The pending cookie is single-use: a copy of it with a later code opens nothing.
    const copy = await call("/login", {
      method: "POST",
      cookie: pending,
      body: form({ intent: "code", code: await codeAt(u.secret, Date.now(), 1) }),
    });
    expect(copy.status).toBe(401);
    expect(cookieNamed(copy, "helio_session")).toBeNull();

    // Replay: the same code (same 30 s step) is refused on the next sign-in.
    const again = await call("/login", { method: "POST", body: form({ email: u.email, password: u.password }) });
    const replay = await call("/login", {
      method: "POST",
      cookie: cookieNamed(again, "helio_2fa")!,
      body: form({ intent: "code", code }),
    });
    expect(replay.status).toBe(401);
    // One sign-in, one history entry: the password attempt became the success, the code's reservation went.
    const history = await db().select().from(loginHistory).where(eq(loginHistory.userId, u.id));
    expect(history.filter((h) => h.success)).toHaveLength(1);
  });

  it("a forged or expired pending cookie is worth nothing", async () => {
    const u = await withTwoFactor();
    const step1 = await call("/login", { method: "POST", body: form({ email: u.email, password: u.password }) });
    const pending = cookieNamed(step1, "helio_2fa")!;
    const [name, value] = pending.split("=");
    const parts = value.split(".");
    const other = await createTestUser();
    const forged = `${name}=${other.id}.${parts[1]}.${parts[2]}.${parts[3]}`;
    const res = await call("/login", {
      method: "POST",
      cookie: forged,
      body: form({ intent: "code", code: await codeAt(u.secret, Date.now()) }),
    });
    expect(res.status).toBe(302);
    expect(cookieNamed(res, "helio_session")).toBeNull();
    const expired = await completeTwoFactorSignIn(
      db(),
      { pending: { userId: u.id, attemptId: 1 }, code: "000000", ipAddress: null, userAgent: null },
      new Date(),
    ).catch((e) => e);
    expect(expired).toMatchObject({ status: 401 });
  });

  it("a recovery code signs in once", async () => {
    const u = await withTwoFactor();
    const now = new Date();
    const first = await logIn(db(), { email: u.email, password: u.password, ipAddress: null, userAgent: null }, now);
    expect(first.pending).not.toBeNull();
    const ok = await completeTwoFactorSignIn(
      db(),
      { pending: first.pending!, code: u.recovery[3].toUpperCase(), ipAddress: null, userAgent: null },
      now,
    );
    expect(ok.user.id).toBe(u.id);
    const second = await logIn(db(), { email: u.email, password: u.password, ipAddress: null, userAgent: null }, now);
    await expect(
      completeTwoFactorSignIn(
        db(),
        { pending: second.pending!, code: u.recovery[3], ipAddress: null, userAgent: null },
        now,
      ),
    ).rejects.toMatchObject({ status: 401 });
    expect(
      await db()
        .select()
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, u.id), isNull(recoveryCodes.usedAt))),
    ).toHaveLength(9);
  });

  it("codes are throttled like passwords: five wrong codes, then even the right one waits", async () => {
    const u = await withTwoFactor();
    const step1 = await call("/login", { method: "POST", body: form({ email: u.email, password: u.password }) });
    const pending = cookieNamed(step1, "helio_2fa")!;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (
          await call("/login", {
            method: "POST",
            cookie: pending,
            body: form({ intent: "code", code: String(100000 + i) }),
          })
        ).status,
      );
    // The password step counted as an open attempt: four code failures reach the back-off of five.
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    const right = await call("/login", {
      method: "POST",
      cookie: pending,
      body: form({ intent: "code", code: await codeAt(u.secret, Date.now()) }),
    });
    expect(right.status).toBe(429);
  });

  it("the JSON API takes the code with the password, and says when it is missing", async () => {
    const u = await withTwoFactor();
    const without = await call("/api/auth/login", { method: "POST", json: { email: u.email, password: u.password } });
    expect(without.status).toBe(401);
    expect(await without.json()).toMatchObject({ twoFactorRequired: true });
    expect(cookieNamed(without, "helio_session")).toBeNull();
    const wrong = await call("/api/auth/login", {
      method: "POST",
      json: { email: u.email, password: u.password, code: "000000" },
    });
    expect(wrong.status).toBe(401);
    const ok = await call("/api/auth/login", {
      method: "POST",
      json: { email: u.email, password: u.password, code: await codeAt(u.secret, Date.now()) },
    });
    expect(ok.status).toBe(200);
  });
});

describe("turning it off, resetting it, requiring it", () => {
  it("turning two-factor off needs the password", async () => {
    const u = await withTwoFactor();
    const cookie = await loginAs({ email: u.email, password: u.password, code: await codeAt(u.secret, Date.now()) });
    const wrong = await call("/account/two-factor", {
      method: "POST",
      cookie,
      body: form({ intent: "disable", password: "not my password" }),
    });
    expect(wrong.status).toBe(400);
    expect((await db().select().from(users).where(eq(users.id, u.id)).get())!.totpEnabledAt).not.toBeNull();
    const ok = await call("/account/two-factor", {
      method: "POST",
      cookie,
      body: form({ intent: "disable", password: u.password }),
    });
    expect(ok.status).toBe(302);
    const row = (await db().select().from(users).where(eq(users.id, u.id)).get())!;
    expect(row.totpEnabledAt).toBeNull();
    expect(row.totpSecret).toBeNull();
    expect(await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, u.id))).toHaveLength(0);
  });

  it("a superuser resets another user's two-factor (API and Users screen): off, signed out, logged", async () => {
    const admin = await createTestUser({ role: "superuser" });
    const adminCookie = await loginAs(admin);
    for (const via of ["api", "screen"] as const) {
      const u = await withTwoFactor();
      const userCookie = await loginAs({
        email: u.email,
        password: u.password,
        code: await codeAt(u.secret, Date.now()),
      });
      const res =
        via === "api"
          ? await call(`/api/users/${u.id}`, { method: "PUT", cookie: adminCookie, json: { resetTwoFactor: true } })
          : await call(`/user-analytics/users/${u.id}`, {
              method: "POST",
              cookie: adminCookie,
              body: form({ intent: "reset-two-factor" }),
            });
      expect(res.status, via).toBe(via === "api" ? 200 : 302);
      expect((await db().select().from(users).where(eq(users.id, u.id)).get())!.totpEnabledAt, via).toBeNull();
      expect(await db().select().from(sessions).where(eq(sessions.userId, u.id)), via).toHaveLength(0);
      expect((await call("/api/auth/me", { cookie: userCookie })).status).toBe(401);
      const log = await db()
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.userId, admin.id), eq(activityLog.action, "reset_two_factor")));
      expect(
        log.some((l) => (l.details as { targetUserId?: number }).targetUserId === u.id),
        via,
      ).toBe(true);
      await loginAs(u); // the password alone again
    }
    // Not their own (that is the Account screen, with the password).
    expect(
      (await call(`/api/users/${admin.id}`, { method: "PUT", cookie: adminCookie, json: { resetTwoFactor: true } }))
        .status,
    ).toBe(409);
  });

  it("'require two-factor for superusers' sends a superuser without it to set it up first; standard users are not affected", async () => {
    const boss = await withTwoFactor({ role: "superuser" });
    const bossCookie = await loginAs({
      email: boss.email,
      password: boss.password,
      code: await codeAt(boss.secret, Date.now()),
    });
    const plain = await createTestUser({ role: "superuser" });
    const plainCookie = await loginAs(plain);
    const requireTwoFactor = async (cookie: string) =>
      (
        await call("/organisation", {
          method: "POST",
          cookie,
          body: form({ intent: "two-factor-policy", requireSuperuserTwoFactor: "on" }),
        })
      ).status;
    // Refused for a superuser without two-factor of their own.
    expect(await requireTwoFactor(plainCookie)).toBe(409);
    try {
      expect(await requireTwoFactor(bossCookie)).toBe(302);
      const screen = await call("/contacts", { cookie: plainCookie });
      expect(screen.status).toBe(302);
      expect(screen.headers.get("Location")).toBe("/account/two-factor");
      expect((await call("/account/two-factor", { cookie: plainCookie })).status).toBe(200);
      expect((await call("/api/contacts", { cookie: plainCookie })).status).toBe(403);
      expect((await call("/contacts", { cookie: bossCookie })).status).toBe(200);
      expect((await call("/contacts", { cookie: await loginAs(await createTestUser()) })).status).toBe(200);
    } finally {
      await call("/organisation", { method: "POST", cookie: bossCookie, body: form({ intent: "two-factor-policy" }) });
    }
    expect((await call("/contacts", { cookie: plainCookie })).status).toBe(200);
  });
});
