import { desc, eq, gt } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog, users } from "~/db/schema";
import { activityTotal } from "~/users/manage-users.server";
import { activityRetentionDays, purgeOldActivity } from "./purge-old-activity.server";
import { call, createTestUser, db, sessionCookieFrom } from "../../tests/factories";
import { uniquePhone } from "../../tests/contact-factory";

const json = async <T>(res: Response, status: number): Promise<T> => {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
};

describe("activity logging across the product", () => {
  it("records each mutation with user and IP, and no entry holds a secret or a message body", async () => {
    const last = await db()
      .select({ id: activityLog.id })
      .from(activityLog)
      .orderBy(desc(activityLog.id))
      .limit(1)
      .get();
    const maxId = last?.id ?? 0;
    const admin = await createTestUser({ role: "superuser" });
    const ip = { "CF-Connecting-IP": "198.51.100.23" };
    const login = await call("/api/auth/login", {
      method: "POST",
      headers: ip,
      json: { email: admin.email, password: admin.password },
    });
    const cookie = sessionCookieFrom(login);
    const token = cookie.split("=")[1];
    const secretBody = `Secret body ${crypto.randomUUID()} that must not be logged in full`;

    const contact = await json<{ id: number }>(
      await call("/api/contacts", {
        method: "POST",
        cookie,
        headers: ip,
        json: { firstName: "Ann", lastName: "Lee", phone: uniquePhone() },
      }),
      201,
    );
    await json(
      await call(`/api/contacts/${contact.id}`, { method: "PUT", cookie, headers: ip, json: { company: "Sunny" } }),
      200,
    );
    const campaign = await json<{ id: number }>(
      await call("/api/campaigns", { method: "POST", cookie, headers: ip, json: { name: "Activity test" } }),
      201,
    );
    await json(
      await call(`/api/campaigns/${campaign.id}`, {
        method: "PUT",
        cookie,
        headers: ip,
        json: { description: "Updated" },
      }),
      200,
    );
    const step = await json<{ id: number }>(
      await call("/api/campaign-steps", {
        method: "POST",
        cookie,
        headers: ip,
        json: {
          campaignId: campaign.id,
          name: "Intro",
          messageType: "sms",
          content: secretBody,
          delayDays: 0,
          delayHours: 0,
        },
      }),
      201,
    );
    await json(
      await call(`/api/campaign-steps/${step.id}`, { method: "PUT", cookie, headers: ip, json: { name: "Intro 2" } }),
      200,
    );
    await json(
      await call(`/api/campaigns/${campaign.id}/contacts`, {
        method: "POST",
        cookie,
        headers: ip,
        json: { contactIds: [contact.id] },
      }),
      200,
    );
    await json(
      await call(`/api/campaigns/${campaign.id}/start`, { method: "POST", cookie, headers: ip, json: {} }),
      200,
    );
    await json(
      await call(`/api/campaigns/${campaign.id}/pause`, { method: "POST", cookie, headers: ip, json: {} }),
      200,
    );
    await json(
      await call("/api/messages/send", {
        method: "POST",
        cookie,
        headers: ip,
        json: { to: uniquePhone(), message: secretBody },
      }),
      202,
    );

    const created = await json<{ user: { id: number }; password: string }>(
      await call("/api/users", {
        method: "POST",
        cookie,
        headers: ip,
        json: { email: `act-${crypto.randomUUID().slice(0, 8)}@example.com`, firstName: "Act", lastName: "Rep" },
      }),
      201,
    );
    await json(
      await call(`/api/users/${created.user.id}`, { method: "PUT", cookie, headers: ip, json: { role: "superuser" } }),
      200,
    );
    const reset = await json<{ password: string }>(
      await call(`/api/users/${created.user.id}`, {
        method: "PUT",
        cookie,
        headers: ip,
        json: { resetPassword: true },
      }),
      200,
    );
    await json(
      await call(`/api/users/${created.user.id}`, { method: "PUT", cookie, headers: ip, json: { isActive: false } }),
      200,
    );
    await json(await call(`/api/contacts/${contact.id}`, { method: "DELETE", cookie, headers: ip }), 204);
    const profile = await call("/account", {
      method: "POST",
      cookie,
      headers: ip,
      body: new URLSearchParams({ firstName: "Ad", lastName: "Min", email: admin.email, phone: "" }),
    });
    expect(profile.status).toBe(302);
    const newPassword = "another long secret phrase";
    const pw = await call("/account/password", {
      method: "POST",
      cookie,
      headers: ip,
      body: new URLSearchParams({ currentPassword: admin.password, newPassword, confirmPassword: newPassword }),
    });
    expect(pw.status).toBe(302);
    await json(await call("/api/auth/logout", { method: "POST", cookie, headers: ip, json: {} }), 204);

    const entries = await db().select().from(activityLog).where(gt(activityLog.id, maxId)).all();
    const mine = entries.filter((e) => e.userId === admin.id);
    const actions = new Set(mine.map((e) => e.action));
    for (const action of [
      "login",
      "create_contact",
      "update_contact",
      "delete_contact",
      "create_campaign",
      "update_campaign",
      "create_campaign_step",
      "update_campaign_step",
      "add_campaign_contacts",
      "start_campaign",
      "pause_campaign",
      "send_message",
      "create_user",
      "change_user_role",
      "reset_user_password",
      "deactivate_user",
      "update_profile",
      "change_password",
      "logout",
    ]) {
      expect(actions, action).toContain(action);
    }
    for (const e of mine) expect(e.ipAddress, e.action).toBe("198.51.100.23");
    const all = JSON.stringify(entries);
    for (const secret of [admin.password, newPassword, created.password, reset.password, token, secretBody])
      expect(all).not.toContain(secret);
    // Entries name the acting user; the target is only an id in the details.
    expect(await db().select().from(activityLog).where(eq(activityLog.userId, created.user.id)).all()).toEqual([]);
  });
});

describe("activity retention", () => {
  it("removes only entries older than the retention, in bounded batches, keeping the counters right", async () => {
    const u = await createTestUser();
    const now = new Date("2031-01-01T00:00:00Z");
    const old = new Date(now.getTime() - 400 * 86_400_000);
    const recent = new Date(now.getTime() - 10 * 86_400_000);
    // Anything older than the cutoff from other tests goes first, so the figures below are this test's own.
    while ((await purgeOldActivity(db(), old, 0, 1000)) > 0);
    await db()
      .insert(activityLog)
      .values([
        ...Array.from({ length: 3 }, () => ({ userId: u.id, action: "old", createdAt: old })),
        { userId: u.id, action: "recent", createdAt: recent },
      ]);
    const total = await activityTotal(db());
    expect(activityRetentionDays({})).toBe(365);
    expect(activityRetentionDays({ ACTIVITY_RETENTION_DAYS: "30" })).toBe(30);
    expect(activityRetentionDays({ ACTIVITY_RETENTION_DAYS: "zero" })).toBe(365);
    expect(await purgeOldActivity(db(), now, 365, 2)).toBe(2);
    expect(await purgeOldActivity(db(), now, 365, 2)).toBe(1);
    expect(await purgeOldActivity(db(), now, 365, 2)).toBe(0);
    const left = await db().select().from(activityLog).where(eq(activityLog.userId, u.id)).all();
    expect(left.map((e) => e.action)).toEqual(["recent"]);
    expect(await activityTotal(db())).toBe(total - 3);
    expect((await db().select().from(users).where(eq(users.id, u.id)).get())!.activityCount).toBe(1);
  });
});
