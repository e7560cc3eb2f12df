import { describe, expect, it } from "vitest";
import { createTestUser, db } from "../../tests/factories";
import { autoResponders } from "~/db/schema";
import { formatOfferExpiration } from "~/messaging/variable-values";
import { createCampaign } from "./create-campaign.server";
import { delayLabel } from "./delay-label";
import { getDashboard } from "./get-dashboard.server";
import { nextInStepWindow, parseClock } from "./send-window";

describe("delayLabel (SPEC §9)", () => {
  it("reads Immediate for zero, else days and hours", () => {
    expect(delayLabel(0, 0)).toBe("Immediate");
    expect(delayLabel(2, 3)).toBe("2d 3h");
    expect(delayLabel(5, 0)).toBe("5d");
    expect(delayLabel(0, 3)).toBe("3h");
    expect(delayLabel(Number.NaN, 4)).toBe("4h");
  });
});

describe("send windows", () => {
  const w = { startMinute: 10 * 60, endMinute: 17 * 60, weekdaysOnly: true };
  it("keeps a time inside the window and moves others to the next opening in the contact's zone", () => {
    const inside = Date.parse("2026-03-04T18:00:00Z"); // Wed 11:00 in Phoenix
    expect(nextInStepWindow(inside, "America/Phoenix", w)).toBe(inside);
    expect(nextInStepWindow(Date.parse("2026-03-04T01:30:00Z"), "America/Phoenix", w)).toBe(
      Date.parse("2026-03-04T17:00:00Z"),
    ); // Tue 18:30 → Wed 10:00
    expect(nextInStepWindow(Date.parse("2026-03-07T18:00:00Z"), "America/Phoenix", w)).toBe(
      Date.parse("2026-03-09T17:00:00Z"),
    ); // Sat → Mon
    expect(nextInStepWindow(Date.parse("2026-03-07T18:00:00Z"), "America/Phoenix", { ...w, weekdaysOnly: false })).toBe(
      Date.parse("2026-03-07T18:00:00Z"),
    );
  });
  it("follows the zone's DST change (New York springs forward on 2026-03-08)", () => {
    expect(nextInStepWindow(Date.parse("2026-03-06T23:00:00Z"), "America/New_York", w)).toBe(
      Date.parse("2026-03-09T14:00:00Z"),
    ); // Fri 18:00 EST → Mon 10:00 EDT
  });
  it("parses HH:MM", () => {
    expect([
      parseClock("10:00"),
      parseClock("9:30"),
      parseClock("24:00"),
      parseClock("25:00"),
      parseClock("x"),
    ]).toEqual([600, 570, 1440, null, null]);
  });
});

describe("campaign variables and the dashboard read", () => {
  it("formats the offer expiration as words", () => {
    expect(formatOfferExpiration("2026-12-31")).toBe("December 31, 2026");
    expect(formatOfferExpiration("end of month")).toBe("end of month");
    expect(formatOfferExpiration(null)).toBeNull();
  });

  it("dashboard: stats, first 5 campaigns and first 5 auto-responders (newest first, 50-character preview)", async () => {
    const user = await createTestUser();
    const now = new Date();
    const mine: { id: number }[] = [];
    for (let i = 0; i < 6; i++)
      mine.push(
        await createCampaign(db(), { name: `Dash ${i}` }, { userId: user.id, role: "superuser", ipAddress: null }, now),
      );
    const long = "R".repeat(80);
    const responders: { id: number }[] = [];
    for (let i = 0; i < 6; i++) {
      const [r] = await db()
        .insert(autoResponders)
        .values({
          name: `AR ${i}`,
          keyword: `kw${i}`,
          isActive: i % 2 === 0,
          responses: { primary: `${i}${long}` },
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      responders.push(r);
    }
    const d = await getDashboard(db());
    // Other test files may add rows concurrently (newer ids): the newest five, each at least as new as ours.
    const descending = (ids: number[]) => ids.every((id, i) => i === 0 || id < ids[i - 1]);
    expect(d.campaigns).toHaveLength(5);
    expect(descending(d.campaigns.map((c) => c.id)) && d.campaigns.every((c) => c.id >= mine[1].id)).toBe(true);
    expect(d.autoResponders).toHaveLength(5);
    expect(
      descending(d.autoResponders.map((r) => r.id)) && d.autoResponders.every((r) => r.id >= responders[1].id),
    ).toBe(true);
    const kw5 = d.autoResponders.find((r) => r.keyword === "kw5");
    if (kw5) expect(kw5).toMatchObject({ isActive: false, responsePreview: `5${long}`.slice(0, 50) });
    expect(d.autoResponders.every((r) => r.responsePreview.length <= 50)).toBe(true);
    expect(Object.keys(d.stats).sort()).toEqual(["contacts", "delivered", "messagesSent", "responses"]);
  });
});
