import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { activityLog, activityTotals, sessions, users } from "~/db/schema";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { detailsText, displayName } from "./display";
import { activityTotal, changeOwnPassword, createUser, LAST_SUPERUSER, updateUser } from "./manage-users.server";

const FAST = { iterations: 1_000 };
const actor = (userId: number) => ({ userId, ipAddress: "203.0.113.7" });

/** Every active superuser but `keep` becomes a standard user, so `keep` is the last one. */
async function onlySuperuser(keep: number) {
  await db().update(users).set({ role: "user" }).where(eq(users.role, "superuser"));
  await db().update(users).set({ role: "superuser", isActive: true }).where(eq(users.id, keep));
}

describe("user management", () => {
  let admin: Awaited<ReturnType<typeof createTestUser>>;
  beforeEach(async () => {
    admin = await createTestUser({ role: "superuser" });
  });

  it("creates a user with a one-time password that must be changed at first sign-in", async () => {
    const email = `new-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const res = await call("/api/users", {
      method: "POST",
      cookie: await loginAs(admin),
      json: { email, firstName: "New", lastName: "Rep" },
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { user: { id: number; mustChangePassword: boolean }; password: string };
    expect(body.password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(body.user.mustChangePassword).toBe(true);
    // The hash is stored, never the password.
    const row = await db().select().from(users).where(eq(users.id, body.user.id)).get();
    expect(row!.passwordHash).not.toContain(body.password);

    // Signed in with it, every screen sends the user to change it, and the API refuses until then.
    const cookie = await loginAs({ email, password: body.password });
    const home = await call("/contacts", { cookie });
    expect(home.status).toBe(302);
    expect(home.headers.get("Location")).toBe("/account/password");
    expect((await call("/api/contacts", { cookie })).status).toBe(403);
    expect((await call("/account/password", { cookie })).status).toBe(200);

    // The current password is required.
    const wrong = await call("/account/password", {
      method: "POST",
      cookie,
      body: new URLSearchParams({
        currentPassword: "nope-nope-nope",
        newPassword: "a brand new secret",
        confirmPassword: "a brand new secret",
      }),
    });
    expect(wrong.status).toBe(400);
    const ok = await call("/account/password", {
      method: "POST",
      cookie,
      body: new URLSearchParams({
        currentPassword: body.password,
        newPassword: "a brand new secret",
        confirmPassword: "a brand new secret",
      }),
    });
    expect(ok.status).toBe(302);
    expect((await call("/contacts", { cookie })).status).toBe(200);
    await loginAs({ email, password: "a brand new secret" });
  });

  it("refuses a duplicate email with 409", async () => {
    const cookie = await loginAs(admin);
    const res = await call("/api/users", {
      method: "POST",
      cookie,
      json: { email: admin.email.toUpperCase(), firstName: "A", lastName: "B" },
    });
    expect(res.status).toBe(409);
  });

  it("deactivation ends the user's live sessions at once, and reactivation lets them sign in again", async () => {
    const rep = await createTestUser();
    const cookie = await loginAs(rep);
    expect((await call("/api/auth/me", { cookie })).status).toBe(200);
    const res = await call(`/api/users/${rep.id}`, {
      method: "PUT",
      cookie: await loginAs(admin),
      json: { isActive: false },
    });
    expect(res.status).toBe(200);
    expect(await db().select().from(sessions).where(eq(sessions.userId, rep.id)).all()).toEqual([]);
    expect((await call("/api/auth/me", { cookie })).status).toBe(401);
    await expect(loginAs(rep)).rejects.toThrow(/403/);
    await updateUser(db(), rep.id, { isActive: true }, actor(admin.id), new Date());
    await loginAs(rep);
  });

  it("a password reset issues a new one-time password and signs the user out", async () => {
    const rep = await createTestUser();
    const cookie = await loginAs(rep);
    const { password } = await updateUser(db(), rep.id, { resetPassword: true }, actor(admin.id), new Date(), FAST);
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect((await call("/api/auth/me", { cookie })).status).toBe(401);
    await expect(loginAs(rep)).rejects.toThrow(/401/);
    const again = await loginAs({ email: rep.email, password: password! });
    expect((await call("/", { cookie: again })).headers.get("Location")).toBe("/account/password");
  });

  it("the last active superuser cannot be demoted or deactivated (409)", async () => {
    await onlySuperuser(admin.id);
    const other = await createTestUser({ role: "superuser" });
    const cookie = await loginAs(other);
    // Two superusers: demoting one is fine; then the remaining one is protected.
    expect((await call(`/api/users/${admin.id}`, { method: "PUT", cookie, json: { role: "user" } })).status).toBe(200);
    const adminCookie = await loginAs(admin);
    expect(
      (await call(`/api/users/${other.id}`, { method: "PUT", cookie: adminCookie, json: { role: "user" } })).status,
    ).toBe(403);
    await expect(updateUser(db(), other.id, { role: "user" }, actor(admin.id), new Date())).rejects.toThrow(
      LAST_SUPERUSER,
    );
    await expect(updateUser(db(), other.id, { isActive: false }, actor(admin.id), new Date())).rejects.toThrow(
      LAST_SUPERUSER,
    );
    const row = await db().select().from(users).where(eq(users.id, other.id)).get();
    expect(row).toMatchObject({ role: "superuser", isActive: true });
  });

  it("concurrent demotes of the last two superusers leave one", async () => {
    await onlySuperuser(admin.id);
    const other = await createTestUser({ role: "superuser" });
    const results = await Promise.allSettled([
      updateUser(db(), admin.id, { role: "user" }, actor(other.id), new Date()),
      updateUser(db(), other.id, { role: "user" }, actor(admin.id), new Date()),
      updateUser(db(), admin.id, { isActive: false }, actor(other.id), new Date()),
      updateUser(db(), other.id, { isActive: false }, actor(admin.id), new Date()),
    ]);
    expect(results.some((r) => r.status === "rejected")).toBe(true);
    const left = await db().select().from(users).where(eq(users.role, "superuser")).all();
    expect(left.filter((u) => u.isActive).length).toBe(1);
  });

  // Issue 23: no path leaves the organisation without an active superuser, and each says why (the CLI:
  // scripts/users.node.test.mjs). The last one can only be reached by themselves, which both paths refuse.
  it("the last active superuser: the API, the Users screen and the domain all refuse, with a clear message", async () => {
    await onlySuperuser(admin.id);
    const cookie = await loginAs(admin);
    for (const json of [{ role: "user" }, { isActive: false }]) {
      const res = await call(`/api/users/${admin.id}`, { method: "PUT", cookie, json });
      expect(res.status).toBe(409);
      expect(((await res.json()) as { message: string }).message).toBe(
        "Another superuser must change your own role, status or two-factor",
      );
    }
    for (const intent of ["make-user", "deactivate"]) {
      const res = await call(`/user-analytics/users/${admin.id}`, {
        method: "POST",
        cookie,
        body: new URLSearchParams({ intent }),
      });
      expect(res.status).toBe(409);
      expect(await res.text()).toContain("another superuser can change your role or status");
    }
    const rep = await createTestUser();
    await expect(updateUser(db(), admin.id, { isActive: false }, actor(rep.id), new Date())).rejects.toThrow(
      LAST_SUPERUSER,
    );
    await expect(updateUser(db(), admin.id, { role: "user" }, actor(rep.id), new Date())).rejects.toThrow(
      LAST_SUPERUSER,
    );
    expect(await db().select().from(users).where(eq(users.id, admin.id)).get()).toMatchObject({
      role: "superuser",
      isActive: true,
    });
    // There is no delete: DELETE is not a method of the users API.
    expect((await call(`/api/users/${admin.id}`, { method: "DELETE", cookie })).status).toBe(405);
  });

  it("a superuser cannot change their own role or status through the API", async () => {
    const res = await call(`/api/users/${admin.id}`, {
      method: "PUT",
      cookie: await loginAs(admin),
      json: { isActive: false },
    });
    expect(res.status).toBe(409);
  });

  it("standard users are refused on the screen and on the API", async () => {
    const cookie = await loginAs(await createTestUser());
    const screen = await call("/user-analytics", { cookie });
    expect(screen.status).toBe(403);
    expect(await screen.text()).toContain("Access restricted");
    for (const path of ["/api/users", "/api/analytics/users", "/api/analytics/activity"])
      expect((await call(path, { cookie })).status, path).toBe(403);
    expect(
      (
        await call("/api/users", {
          method: "POST",
          cookie,
          json: { email: "x@example.com", firstName: "X", lastName: "Y" },
        })
      ).status,
    ).toBe(403);
  });

  it("each user edits their own profile, which the session reflects", async () => {
    const rep = await createTestUser();
    const cookie = await loginAs(rep);
    const res = await call("/account", {
      method: "POST",
      cookie,
      body: new URLSearchParams({ firstName: "Sarah", lastName: "Miller", email: rep.email, phone: "+15125550123" }),
    });
    expect(res.status).toBe(302);
    const row = await db().select().from(users).where(eq(users.id, rep.id)).get();
    expect(row).toMatchObject({ firstName: "Sarah", lastName: "Miller", phone: "+15125550123" });
  });

  it("own password change needs the current password", async () => {
    const rep = await createTestUser();
    await expect(
      changeOwnPassword(
        db(),
        rep.id,
        { currentPassword: "wrong", newPassword: "another long one" },
        { ipAddress: null, keepSessionId: null },
        new Date(),
      ),
    ).rejects.toThrow("Current password is incorrect");
  });
});

describe("activity counters and the analytics API", () => {
  it("keeps per-user and total counts by trigger, and the API returns latest first with the total", async () => {
    const admin = await createTestUser({ role: "superuser" });
    const before = await activityTotal(db());
    const cookie = await loginAs(admin); // one `login` entry
    await createUser(
      db(),
      { email: `c-${crypto.randomUUID().slice(0, 8)}@example.com`, firstName: "C", lastName: "D", role: "user" },
      actor(admin.id),
      new Date(),
      FAST,
    );
    expect(await activityTotal(db())).toBe(before + 2);
    const row = await db().select().from(users).where(eq(users.id, admin.id)).get();
    const counted = await db().select().from(activityLog).where(eq(activityLog.userId, admin.id)).all();
    expect(row!.activityCount).toBe(counted.length);

    // SPEC §3/§7: a list of entries, each with an optional user {firstName, lastName, email}; the total in a header.
    const res = await call("/api/analytics/activity?limit=2", { cookie });
    const entries = (await res.json()) as {
      id: number;
      action: string;
      user?: { firstName: string; lastName: string; email: string };
    }[];
    const total = await db().select().from(activityTotals).get();
    expect(Array.isArray(entries)).toBe(true);
    expect(res.headers.get("X-Total-Count")).toBe(String(total!.total));
    expect(res.headers.get("X-Next-Cursor")).toBe(String(entries[1].id));
    expect(entries[0].id).toBeGreaterThan(entries[1].id);
    expect(entries[0].action).toBe("create_user");
    expect(entries[0].user).toEqual({ firstName: admin.firstName, lastName: admin.lastName, email: admin.email });
    expect(entries[0]).not.toHaveProperty("userName");

    const usersRes = await call("/api/analytics/users", { cookie });
    type Listed = {
      id: number;
      totalActivities: number;
      loginCount: number;
      recentActivities: { id: number; action: string; createdAt: string }[];
      loginHistory: { id: number; createdAt: string; ipAddress: string | null }[];
    };
    const list = (await usersRes.json()) as Listed[];
    const me = list.find((u) => u.id === admin.id)!;
    expect(me).toMatchObject({ totalActivities: counted.length, loginCount: 1 });
    expect(me.recentActivities.map((a) => a.action)).toEqual(["create_user", "login"]);
    expect(me.loginHistory).toHaveLength(1);
    expect(me.loginHistory[0]).toMatchObject({ id: expect.any(Number), createdAt: expect.stringMatching(/^\d{4}-/) });
  });

  it("display rules: name or the part of the email before @, details cut to 50 characters plus …", () => {
    expect(displayName({ firstName: "", lastName: "", email: "ann.lee@example.com" })).toBe("ann.lee");
    expect(displayName({ firstName: "Ann", lastName: "Lee", email: "x@example.com" })).toBe("Ann Lee");
    const long = detailsText({ note: "x".repeat(100) });
    expect(long.length).toBe(51);
    expect(long.endsWith("…")).toBe(true);
    expect(detailsText(null)).toBe("");
  });
});

describe("the user list pages by id (no 1,000-row cap)", () => {
  it("walks every user oldest first through keyset pages, over the API too", async () => {
    const { listUsers, userTotals } = await import("./manage-users.server");
    const admin = await createTestUser({ role: "superuser" });
    const made = [await createTestUser(), await createTestUser(), await createTestUser()];
    const seen: number[] = [];
    for (let after: number | null = made[0].id - 1; ; ) {
      const page = await listUsers(db(), { after, limit: 2 });
      seen.push(...page.items.map((u) => u.id));
      if (page.nextCursor === null || seen.length > 10_000) break;
      after = page.nextCursor;
    }
    for (const u of made) expect(seen).toContain(u.id);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen).size).toBe(seen.length);
    const totals = await userTotals(db());
    expect(totals.total).toBeGreaterThanOrEqual(4);
    expect(totals.superusers).toBeGreaterThanOrEqual(1);

    const cookie = await loginAs(admin);
    const first = await call(`/api/users?limit=1&after=${made[0].id - 1}`, { cookie });
    expect(first.status).toBe(200);
    expect(((await first.json()) as { id: number }[]).map((u) => u.id)).toEqual([made[0].id]);
    expect(first.headers.get("X-Next-Cursor")).toBe(String(made[0].id));
    expect((await call("/api/users?limit=0", { cookie })).status).toBe(400);
    expect((await call("/api/analytics/users?after=abc", { cookie })).status).toBe(400);
  });
});
