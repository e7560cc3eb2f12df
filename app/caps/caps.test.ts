// The one counter behind every cap (decision 021): atomic fixed windows, the limits read from org_settings with
// safe defaults, the cron purge in bounded chunks, and plans that touch only the rows they need.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "../../tests/factories";
import { uniqueTag } from "../../tests/contact-factory";
import { capLimitsFrom, DEFAULT_CAP_LIMITS, HOUR } from "./caps";
import { hitCap, readCapUse } from "./hit-cap.server";
import { purgeCapWindows, purgeOldCapWindows } from "./purge-old-cap-windows.server";
import { heldToday } from "./record-held.server";
import { plan } from "../../tests/query-plan";

const AT = new Date("2026-11-18T18:30:00Z");

describe("cap counters", () => {
  it("count atomically per channel, subject and window: concurrent events get distinct counts; over the limit is refused", async () => {
    const subject = uniqueTag("s");
    const w = { windowMs: HOUR, limit: 3 };
    const results = await Promise.all(Array.from({ length: 6 }, () => hitCap(db(), "test", subject, w, AT)));
    expect(results.map((r) => r.hits).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
    expect(results[0].resetAt).toBe(Date.parse("2026-11-18T19:00:00Z"));
    expect((await hitCap(db(), "test", subject, w, new Date(AT.getTime() + HOUR))).hits).toBe(1); // the next window
    expect((await hitCap(db(), "other", subject, w, AT)).hits).toBe(1); // another channel
  });

  it("limits come from org_settings `cap.*` rows, defaults for anything missing or out of range", () => {
    expect(capLimitsFrom([])).toEqual(DEFAULT_CAP_LIMITS);
    expect(DEFAULT_CAP_LIMITS).toEqual({
      autoReplyPerResponder: 1,
      autoReplyPerNumberDay: 3,
      alertEmailPerConversation: 1,
      aiClassifyPerNumber: 5,
      aiDailyBudget: 2000,
      testSendPerUser: 10,
      testAlertPerUser: 5,
      pushPerUser: 20,
      alertSmsPerUser: 3,
      // A paid request per number (decision 069): off until the organisation turns it on.
      lineTypeLookupsPerDay: 0,
    });
    const rows = [
      { key: "cap.autoReplyPerResponder", value: "0" },
      { key: "cap.aiDailyBudget", value: " 500 " },
      { key: "cap.testSendPerUser", value: "-1" },
      { key: "cap.testAlertPerUser", value: "lots" },
    ];
    expect(capLimitsFrom(rows)).toEqual({ ...DEFAULT_CAP_LIMITS, autoReplyPerResponder: 0, aiDailyBudget: 500 });
  });

  it("a screen's use figure reads the current window (used, remaining)", async () => {
    const subject = uniqueTag("u");
    for (let i = 0; i < 12; i++) await hitCap(db(), "testSendPerUser", subject, { windowMs: HOUR, limit: 10 }, AT);
    expect(await readCapUse(db(), "testSendPerUser", subject, DEFAULT_CAP_LIMITS, AT)).toMatchObject({
      used: 10,
      limit: 10,
      remaining: 0,
    });
    expect(
      await readCapUse(db(), "testSendPerUser", subject, DEFAULT_CAP_LIMITS, new Date(AT.getTime() + HOUR)),
    ).toMatchObject({ used: 0, remaining: 10 });
  });

  it("the cron purge removes ended windows oldest first, at most a batch per tick", async () => {
    // Windows that ended in 1970: no other test writes there, so the purge below touches only these.
    const channel = uniqueTag("purge");
    for (let i = 0; i < 5; i++) {
      await db().run(
        sql`INSERT INTO cap_counters (channel, subject, window_start, hits, expires_at) VALUES (${channel}, 'x', ${i}, 1, ${1000 + i})`,
      );
    }
    await db().run(
      sql`INSERT INTO cap_counters (channel, subject, window_start, hits, expires_at) VALUES (${channel}, 'x', 99, 1, ${AT.getTime() + HOUR})`,
    );
    expect(await purgeOldCapWindows(db(), new Date(1003), 2)).toBe(2);
    const left = await db().all<{ e: number }>(
      sql`SELECT expires_at AS e FROM cap_counters WHERE channel = ${channel} ORDER BY expires_at`,
    );
    expect(left.map((r) => r.e)).toEqual([1002, 1003, 1004, AT.getTime() + HOUR]);
  });

  it("plans: the tallies read by primary key, the purge through the expires_at index", async () => {
    expect(await plan(heldToday(db(), ["auto_reply", "alert_email"], AT).getSQL())).toMatch(
      /SEARCH cap_counters USING (?:PRIMARY KEY|INDEX sqlite_autoindex_cap_counters_1) \(channel=\? AND subject=\? AND window_start=\?\)/,
    );
    expect(await plan(purgeCapWindows(db(), AT).getSQL())).toMatch(
      /SEARCH cap_counters USING (?:COVERING )?INDEX cap_counters_expires_at_idx \(expires_at<\?\)/,
    );
    // The idle tick's probe: the index's first entry.
    expect(await plan(sql`SELECT min(expires_at) AS next FROM cap_counters`)).toMatch(
      /SEARCH cap_counters USING COVERING INDEX cap_counters_expires_at_idx/,
    );
  });
});
