import { and, desc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog } from "~/db/schema";
import { createTestContact } from "../../../../tests/contact-factory";
import { call, db, expectSessionNeeded, signedIn } from "../../../../tests/factories";

const NAME_REQUIRED = "Please enter a campaign name";
const FIELDS_REQUIRED = "Please fill in all required fields";

async function newCampaign(cookie: string, body: Record<string, unknown> = {}) {
  const res = await call("/api/campaigns", {
    method: "POST",
    cookie,
    json: { name: "Spring", description: "Leads", ...body },
  });
  expect(res.status).toBe(201);
  return res.json<any>();
}

async function newStep(cookie: string, campaignId: number, body: Record<string, unknown> = {}) {
  return call("/api/campaign-steps", {
    method: "POST",
    cookie,
    json: {
      campaignId,
      name: "Intro",
      messageType: "sms",
      content: "Hi {{firstName}}",
      delayDays: 0,
      delayHours: 0,
      ...body,
    },
  });
}

async function lastActivity(userId: number, action: string) {
  return db()
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.userId, userId), eq(activityLog.action, action)))
    .orderBy(desc(activityLog.id))
    .get();
}

describe("/api/campaigns", () => {
  it("needs a session on every route", async () => {
    await expectSessionNeeded([
      ["/api/campaigns", "GET"],
      ["/api/campaigns", "POST"],
      ["/api/campaigns/1", "GET"],
      ["/api/campaigns/1", "PUT"],
      ["/api/campaigns/1", "DELETE"],
      ["/api/campaigns/1/start", "POST"],
      ["/api/campaigns/1/pause", "POST"],
      ["/api/campaign-steps/1", "GET"],
      ["/api/campaign-steps", "POST"],
      ["/api/campaign-steps/1", "PUT"],
      ["/api/campaign-steps/1", "DELETE"],
      ["/api/stats", "GET"],
    ]);
  });

  it("creates a draft with picked contacts (201, create_campaign logged), lists, gets, updates", async () => {
    const { user, cookie } = await signedIn();
    const a = await createTestContact(user.id);
    const b = await createTestContact(user.id);
    for (const bad of [{}, { name: "   " }, { name: null }]) {
      const res = await call("/api/campaigns", { method: "POST", cookie, json: bad });
      expect(res.status).toBe(400);
      expect((await res.json<any>()).message).toBe(NAME_REQUIRED);
    }
    const bad = await call("/api/campaigns", {
      method: "POST",
      cookie,
      json: { name: "x", scheduledAt: "not a date" },
    });
    expect(bad.status).toBe(400);
    const c = await newCampaign(cookie, {
      contactIds: [a.id, b.id, a.id, 999_999_999],
      scheduledAt: "2026-12-01T15:00:00Z",
      promoCode: "SUN",
    });
    expect(c).toMatchObject({
      name: "Spring",
      description: "Leads",
      status: "draft",
      contactCount: 2,
      sentCount: 0,
      deliveredCount: 0,
      responseCount: 0,
      promoCode: "SUN",
      stopOnReply: true,
      scheduledAt: "2026-12-01T15:00:00.000Z",
      progress: { enrolled: 2, waiting: 2, finished: 0, stopped: 0 },
    });
    expect((await lastActivity(user.id, "create_campaign"))?.details).toMatchObject({
      campaignId: c.id,
      name: "Spring",
    });

    const list = await call("/api/campaigns?limit=200", { cookie });
    expect(list.status).toBe(200);
    expect((await list.json<any[]>()).find((x) => x.id === c.id)).toMatchObject({ name: "Spring", contactCount: 2 });
    expect((await call("/api/campaigns?limit=0", { cookie })).status).toBe(400);

    expect(await (await call(`/api/campaigns/${c.id}`, { cookie })).json<any>()).toMatchObject({
      id: c.id,
      status: "draft",
    });
    const put = await call(`/api/campaigns/${c.id}`, {
      method: "PUT",
      cookie,
      json: { name: "Summer", stopOnReply: false, offerExpiration: "2026-12-31" },
    });
    expect(await put.json<any>()).toMatchObject({
      name: "Summer",
      description: "Leads",
      stopOnReply: false,
      offerExpiration: "2026-12-31",
    });
    const blank = await call(`/api/campaigns/${c.id}`, { method: "PUT", cookie, json: { name: "" } });
    expect([blank.status, (await blank.json<any>()).message]).toEqual([400, NAME_REQUIRED]);
  });

  it("unknown ids are 404 everywhere", async () => {
    const { cookie } = await signedIn();
    for (const id of ["999999999", "abc", "0", "1e3"]) {
      expect((await call(`/api/campaigns/${id}`, { cookie })).status).toBe(404);
      expect((await call(`/api/campaigns/${id}`, { method: "PUT", cookie, json: { name: "x" } })).status).toBe(404);
      expect((await call(`/api/campaigns/${id}`, { method: "DELETE", cookie })).status).toBe(404);
      expect((await call(`/api/campaigns/${id}/start`, { method: "POST", cookie })).status).toBe(404);
      expect((await call(`/api/campaigns/${id}/pause`, { method: "POST", cookie })).status).toBe(404);
      expect((await call(`/api/campaign-steps/${id}`, { cookie })).status).toBe(404);
      expect((await call(`/api/campaign-steps/${id}`, { method: "PUT", cookie, json: { name: "x" } })).status).toBe(
        404,
      );
      expect((await call(`/api/campaign-steps/${id}`, { method: "DELETE", cookie })).status).toBe(404);
    }
    expect((await newStep(cookie, 999_999_999)).status).toBe(404);
  });

  it("steps: validation (400 with SPEC's text), next number = highest + 1, edit, delete renumbers", async () => {
    const { cookie } = await signedIn();
    const c = await newCampaign(cookie);
    for (const body of [{ name: "" }, { content: "  " }, { name: undefined }, { messageType: "email", subject: "" }]) {
      const res = await newStep(cookie, c.id, body);
      expect([res.status, (await res.json<any>()).message]).toEqual([400, FIELDS_REQUIRED]);
    }
    const hours = await newStep(cookie, c.id, { delayHours: 24 });
    expect([hours.status, (await hours.json<any>()).message]).toEqual([400, "Delay hours must be between 0 and 23"]);
    const days = await newStep(cookie, c.id, { delayDays: -1 });
    expect([days.status, (await days.json<any>()).message]).toEqual([400, "Delay days must be at least 0"]);
    const unknownVar = await newStep(cookie, c.id, { content: "Hi {{nickname}}" });
    expect(unknownVar.status).toBe(400);

    const s1 = await (await newStep(cookie, c.id, { delayDays: "abc", delayHours: "" })).json<any>();
    expect(s1).toMatchObject({
      stepNumber: 1,
      delayDays: 0,
      delayHours: 0,
      delayLabel: "Immediate",
      isActive: true,
      subject: null,
    });
    const s2res = await newStep(cookie, c.id, {
      name: "Email",
      messageType: "email",
      subject: "Your quote",
      content: "See {{promoCode}}",
      delayDays: 2,
      delayHours: 3,
      stepNumber: 1,
    });
    expect(s2res.status).toBe(201);
    const s2 = await s2res.json<any>();
    expect(s2).toMatchObject({ stepNumber: 2, messageType: "email", subject: "Your quote", delayLabel: "2d 3h" });
    const s3 = await (
      await newStep(cookie, c.id, {
        name: "Window",
        delayHours: 3,
        windowStart: "10:00",
        windowEnd: "17:00",
        windowWeekdays: true,
      })
    ).json<any>();
    expect(s3).toMatchObject({
      stepNumber: 3,
      delayLabel: "3h",
      windowStart: "10:00",
      windowEnd: "17:00",
      windowWeekdays: true,
    });
    const badWindow = await newStep(cookie, c.id, { windowStart: "17:00", windowEnd: "10:00" });
    expect(badWindow.status).toBe(400);

    const put = await call(`/api/campaign-steps/${s1.id}`, {
      method: "PUT",
      cookie,
      json: { content: "Edited", delayDays: 5, isActive: false },
    });
    expect(await put.json<any>()).toMatchObject({
      id: s1.id,
      name: "Intro",
      content: "Edited",
      delayLabel: "5d",
      isActive: false,
      stepNumber: 1,
    });
    const putBad = await call(`/api/campaign-steps/${s1.id}`, { method: "PUT", cookie, json: { name: " " } });
    expect([putBad.status, (await putBad.json<any>()).message]).toEqual([400, FIELDS_REQUIRED]);

    expect((await call(`/api/campaign-steps/${s1.id}`, { method: "DELETE", cookie })).status).toBe(204);
    const steps = await (await call(`/api/campaign-steps/${c.id}`, { cookie })).json<any[]>();
    expect(steps.map((s) => [s.id, s.stepNumber])).toEqual([
      [s2.id, 1],
      [s3.id, 2],
    ]);
    const s4 = await (await newStep(cookie, c.id, { name: "Four" })).json<any>();
    expect(s4.stepNumber).toBe(3);
  });

  it("start / pause / resume / delete: each returns the campaign; invalid transitions are 409 with a message", async () => {
    const { user, cookie } = await signedIn();
    const a = await createTestContact(user.id);
    const c = await newCampaign(cookie, { contactIds: [a.id] });
    const pauseDraft = await call(`/api/campaigns/${c.id}/pause`, { method: "POST", cookie });
    expect(pauseDraft.status).toBe(409);
    expect((await pauseDraft.json<any>()).message).toMatch(/Only a running campaign can be paused/);
    const noSteps = await call(`/api/campaigns/${c.id}/start`, { method: "POST", cookie });
    expect([noSteps.status, (await noSteps.json<any>()).message]).toEqual([
      409,
      "Add at least one active step before starting the campaign",
    ]);
    const inactive = await (await newStep(cookie, c.id, { isActive: false })).json<any>();
    expect((await call(`/api/campaigns/${c.id}/start`, { method: "POST", cookie })).status).toBe(409);
    await call(`/api/campaign-steps/${inactive.id}`, { method: "PUT", cookie, json: { isActive: true } });

    const started = await call(`/api/campaigns/${c.id}/start`, { method: "POST", cookie });
    expect(started.status).toBe(200);
    expect(await started.json<any>()).toMatchObject({ id: c.id, status: "running" });
    expect((await lastActivity(user.id, "start_campaign"))?.details).toMatchObject({ campaignId: c.id });
    expect((await call(`/api/campaigns/${c.id}/start`, { method: "POST", cookie })).status).toBe(409);
    const del = await call(`/api/campaigns/${c.id}`, { method: "DELETE", cookie });
    expect(del.status).toBe(409);
    expect((await del.json<any>()).message).toMatch(/Only a draft campaign can be deleted/);

    const paused = await call(`/api/campaigns/${c.id}/pause`, { method: "POST", cookie });
    expect(await paused.json<any>()).toMatchObject({ status: "paused" });
    expect((await lastActivity(user.id, "pause_campaign"))?.details).toMatchObject({ campaignId: c.id });
    expect((await call(`/api/campaigns/${c.id}/pause`, { method: "POST", cookie })).status).toBe(409);
    expect(await (await call(`/api/campaigns/${c.id}/start`, { method: "POST", cookie })).json<any>()).toMatchObject({
      status: "running",
    });

    await db().run(sql`UPDATE campaigns SET status = 'completed' WHERE id = ${c.id}`);
    const again = await call(`/api/campaigns/${c.id}/start`, { method: "POST", cookie });
    expect([again.status, (await again.json<any>()).message]).toEqual([
      409,
      "This campaign is completed and cannot be started again",
    ]);
    expect((await call(`/api/campaigns/${c.id}/pause`, { method: "POST", cookie })).status).toBe(409);

    const draft = await newCampaign(cookie);
    await newStep(cookie, draft.id);
    const empty = await call(`/api/campaigns/${draft.id}/start`, { method: "POST", cookie });
    expect([empty.status, (await empty.json<any>()).message]).toEqual([
      409,
      "Add contacts before starting the campaign",
    ]);
    expect((await call(`/api/campaigns/${draft.id}`, { method: "DELETE", cookie })).status).toBe(204);
    expect((await call(`/api/campaigns/${draft.id}`, { cookie })).status).toBe(404);
    expect((await call(`/api/campaigns/${c.id}/start`, { cookie })).status).toBe(405);
  });

  it("adds contacts to an existing campaign", async () => {
    const { user, cookie } = await signedIn();
    const a = await createTestContact(user.id);
    const b = await createTestContact(user.id);
    const c = await newCampaign(cookie, { contactIds: [a.id] });
    const res = await call(`/api/campaigns/${c.id}/contacts`, {
      method: "POST",
      cookie,
      json: { contactIds: [a.id, b.id] },
    });
    expect(await res.json<any>()).toMatchObject({ added: 1, campaign: { contactCount: 2 } });
    const empty = await call(`/api/campaigns/${c.id}/contacts`, { method: "POST", cookie, json: { contactIds: [] } });
    expect([empty.status, (await empty.json<any>()).message]).toEqual([400, "Please select at least one contact"]);
  });

  it("GET /api/stats reads the maintained counters", async () => {
    const { user, cookie } = await signedIn();
    const before = await (await call("/api/stats", { cookie })).json<any>();
    expect(Object.keys(before).sort()).toEqual(["contacts", "delivered", "messagesSent", "responses"]);
    await createTestContact(user.id);
    const after = await (await call("/api/stats", { cookie })).json<any>();
    const total = await db().get<{ n: number }>(sql`SELECT count(*) AS n FROM contacts`);
    expect(after.contacts).toBe(total!.n);
    const sent = await db().get<{ n: number }>(
      sql`SELECT count(*) AS n FROM messages WHERE direction = 'outbound' AND status IN ('sent', 'delivered', 'undelivered')`,
    );
    expect(after.messagesSent).toBe(sent!.n);
  });
});
