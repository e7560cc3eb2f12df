import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, createTestUser, db, loginAs, SEES_ALL } from "../../tests/factories";
import { getStats } from "~/campaigns/get-stats.server";
import { campaigns, autoResponders } from "~/db/schema";
import { getAnalytics, getDailyCounts, getSystemHealth } from "./get-analytics.server";
import { dayKeys, parseRange, rate } from "./rates";
import { recordStatus } from "~/activity/system-status.server";

async function insertMessage(direction: "inbound" | "outbound", status: string, createdAt: Date) {
  const t = createdAt.getTime();
  const rows = await db().all<{ id: number }>(sql`
    INSERT INTO messages (channel, direction, kind, status, phone, content, idempotency_key, scheduled_at, created_at, updated_at)
    VALUES ('sms', ${direction}, ${direction === "inbound" ? "inbound" : "individual"}, ${status}, '+15125550100', 'hello', ${crypto.randomUUID()}, ${t}, ${t}, ${t})
    RETURNING id`);
  return rows[0].id;
}

/** The counters against a GROUP BY over the message rows themselves. */
async function countersMatchRows() {
  const counted = await db().all<{ day: string; direction: string; status: string; n: number }>(
    sql`SELECT day, direction, status, n FROM message_daily_counts WHERE n <> 0 ORDER BY 1, 2, 3`,
  );
  const actual = await db().all<{ day: string; direction: string; status: string; n: number }>(
    // Queued and sending count in the pending bucket (migration 0041: the pipeline's own steps write no counter rows).
    sql`SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, direction,
          CASE WHEN status IN ('queued', 'sending') THEN 'pending' ELSE status END AS status, count(*) AS n FROM messages GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  );
  expect(counted).toEqual(actual);
}

describe("analytics", () => {
  it("rates: one decimal, and 0.0% (never NaN or Infinity) with nothing sent", () => {
    expect(rate(0, 0)).toBe("0.0%");
    expect(rate(5, 0)).toBe("0.0%");
    expect(rate(1, 3)).toBe("33.3%");
    expect(rate(2, 3)).toBe("66.7%");
    expect(rate(3, 3)).toBe("100.0%");
    expect(rate(Number.NaN, 3)).toBe("0.0%");
    expect(parseRange("7")).toBe(7);
    expect(parseRange("90")).toBe(90);
    expect(parseRange("365")).toBe(30);
    expect(dayKeys(new Date("2026-03-02T05:00:00Z"), 3)).toEqual(["2026-02-28", "2026-03-01", "2026-03-02"]);
  });

  it("daily counters match the message rows after inserts, status changes and deletes", async () => {
    const day1 = new Date("2026-02-10T23:59:00Z");
    const day2 = new Date("2026-02-11T00:01:00Z");
    const a = await insertMessage("outbound", "pending", day1);
    const b = await insertMessage("outbound", "queued", day2);
    const c = await insertMessage("outbound", "sent", day2);
    await insertMessage("inbound", "received", day2);
    await countersMatchRows();
    await db().run(sql`UPDATE messages SET status = 'sent' WHERE id IN (${a}, ${b})`);
    await db().run(sql`UPDATE messages SET status = 'delivered' WHERE id = ${a}`);
    await db().run(sql`UPDATE messages SET status = 'failed' WHERE id = ${b}`);
    await db().run(sql`UPDATE messages SET status = 'undelivered' WHERE id = ${c}`);
    await countersMatchRows();
    await db().run(sql`DELETE FROM messages WHERE id = ${c}`);
    await countersMatchRows();

    const points = await getDailyCounts(db(), new Date("2026-02-11T12:00:00Z"), 7);
    expect(points).toHaveLength(7);
    expect(points.at(-2)).toMatchObject({ day: "2026-02-10", sent: 1, delivered: 1, failed: 0 });
    expect(points.at(-1)).toMatchObject({ day: "2026-02-11", sent: 0, delivered: 0, failed: 1, received: 1 });
  });

  it("system health comes from real reads: D1, backlog, the recorded tick and provider configuration", async () => {
    const now = new Date("2026-05-01T10:00:00Z");
    const before = await getSystemHealth(db(), {}, now);
    expect(before.d1.ok).toBe(true);
    expect(before.providers.sms).toMatchObject({ provider: "outbox", configured: false });
    const oldest = new Date("2020-01-01T00:00:00Z");
    await insertMessage("outbound", "pending", oldest);
    await recordStatus(db(), "cron_tick", { ran: 3, failed: 1 }, now);
    const after = await getSystemHealth(
      db(),
      { TWILIO_ACCOUNT_SID: "AC123", TWILIO_AUTH_TOKEN: "t", TWILIO_FROM_NUMBER: "+15125550100" },
      now,
    );
    expect(after.queue.backlog).toBe(before.queue.backlog + 1);
    expect(after.queue.oldestPendingAt).toBe(oldest.toISOString());
    expect(after.cron).toEqual({ lastTickAt: now.toISOString(), failed: 1 });
    expect(after.providers.sms.configured).toBe(true);
  });

  it("the screen's one batch gives every part what its own read gives: stats, days, campaigns, responders, recent, health", async () => {
    const now = new Date("2026-06-01T12:00:00Z");
    const far = new Date("2099-01-01T00:00:00Z"); // newest, so first in the newest-first lists
    const marker = crypto.randomUUID().slice(0, 8);
    await db()
      .insert(campaigns)
      .values({
        name: `Funnel ${marker}`,
        contactCount: 40,
        sentCount: 20,
        deliveredCount: 15,
        responseCount: 5,
        createdAt: far,
        updatedAt: far,
      });
    await db()
      .insert(autoResponders)
      .values({ name: `Responder ${marker}`, keyword: marker, responseCount: 1_000_000 });
    await insertMessage("outbound", "failed", new Date("2026-05-31T08:00:00Z"));
    const id = await insertMessage("inbound", "received", far); // the newest row: first in the newest-first list
    await recordStatus(db(), "cron_tick", { ran: 2, failed: 0 }, now);
    const env = { TWILIO_ACCOUNT_SID: "AC123", TWILIO_AUTH_TOKEN: "t", TWILIO_FROM_NUMBER: "+15125550100" };

    const a = await getAnalytics(db(), env, now, 7, SEES_ALL);
    expect(a.stats).toMatchObject(await getStats(db()));
    expect(a.daily).toEqual(await getDailyCounts(db(), now, 7));
    expect(a.daily.at(-2)).toMatchObject({ day: "2026-05-31", failed: 1 });
    expect(a.campaigns[0]).toMatchObject({
      name: `Funnel ${marker}`,
      enrolled: 40,
      sent: 20,
      delivered: 15,
      replied: 5,
      deliveryRate: "75.0%",
      responseRate: "25.0%",
    });
    expect(a.responders[0]).toMatchObject({ name: `Responder ${marker}`, responseCount: 1_000_000, isActive: true });
    expect(a.recent[0]).toMatchObject({ id, direction: "inbound", preview: "hello" });
    const { d1, checkedAt, ...health } = await getSystemHealth(db(), env, now);
    expect(a.health).toMatchObject({ ...health, checkedAt, d1: { ok: d1.ok, error: null } });
    expect(a.health.cron).toEqual({ lastTickAt: now.toISOString(), failed: 0 });
  });

  it("the screen renders the chart as server SVG with its values as text, for every signed-in user", async () => {
    const cookie = await loginAs(await createTestUser());
    const res = await call("/analytics?range=7", { cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<svg");
    expect(html).toContain("Messages per day");
    expect(html).toContain('data-testid="chart-table"');
    expect(html).not.toMatch(/NaN|Infinity/);
    for (const fake of ["92.3%", "297 ms", "1.2 s", "89%"]) expect(html).not.toContain(fake);
  });
});
