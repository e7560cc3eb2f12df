import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "../../tests/factories";
import { createTestUser } from "../../tests/factories";
import migration from "../../migrations/0017_navajo_zone_and_area_codes.sql?raw";
import { assessPhone, PHONE_REASONS } from "./phone";
import { deriveTimeZone } from "./us-geo";

// Rows stored before 0017 kept what the old rules derived. Re-running its statements (they only touch rows that
// disagree with the new rules, so other tests' rows are left alone) must leave what the app now derives.
describe("migration 0017: stored zones and sendable flags follow the new rules", () => {
  it("re-derives Arizona contacts stored as Phoenix, and refuses unassigned or foreign area codes", async () => {
    const user = await createTestUser();
    const tag = crypto.randomUUID().slice(0, 8);
    const line = () => String(Math.floor(Math.random() * 10_000)).padStart(4, "0");
    const stale = [
      { phone: `+1928872${line()}`, state: "AZ", zip: "86515" }, // Window Rock → Denver
      { phone: `+1928873${line()}`, state: "AZ", zip: "86045-1234" }, // Tuba City, ZIP+4 → Denver
      { phone: `+1928874${line()}`, state: "AZ", zip: "86040" }, // Page, 928 → no zone
      { phone: `+1928875${line()}`, state: "AZ", zip: null }, // 928 only → no zone
      { phone: `+1602876${line()}`, state: "AZ", zip: null }, // Phoenix metro number → Phoenix
      { phone: `+1520877${line()}`, state: "AZ", zip: "86039" }, // Hopi → Phoenix
      { phone: `+1928878${line()}`, state: "AZ", zip: "85004" }, // Phoenix ZIP → Phoenix
      { phone: `+1299879${line()}`, state: "AZ", zip: "85004" }, // unassigned area code
      { phone: `+1876879${line()}`, state: null, zip: null }, // Jamaica
    ];
    const now = Date.now();
    const ids: number[] = [];
    for (const c of stale) {
      const row = await db().get<{ id: number }>(sql`
        INSERT INTO contacts (first_name, last_name, phone, state, zip_code, time_zone, sendable, created_by, created_at, updated_at)
        VALUES ('Mig', ${tag}, ${c.phone}, ${c.state}, ${c.zip}, 'America/Phoenix', 1, ${user.id}, ${now}, ${now}) RETURNING id`);
      ids.push(row!.id);
    }
    await db().$client.batch(
      migration
        .split("--> statement-breakpoint")
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => db().$client.prepare(s)),
    );
    const rows = await db().all<{
      id: number;
      phone: string;
      state: string | null;
      zip_code: string | null;
      time_zone: string | null;
      sendable: number;
      unsendable_reason: string | null;
    }>(
      sql`SELECT id, phone, state, zip_code, time_zone, sendable, unsendable_reason FROM contacts WHERE last_name = ${tag} ORDER BY id`,
    );
    expect(rows.map((r) => r.time_zone)).toEqual([
      "America/Denver",
      "America/Denver",
      null,
      null,
      "America/Phoenix",
      "America/Phoenix",
      "America/Phoenix",
      "America/Phoenix",
      null,
    ]);
    // The same as the app derives today.
    for (const r of rows)
      expect(r.time_zone, r.phone).toBe(deriveTimeZone({ state: r.state, zipCode: r.zip_code, phone: r.phone }));
    expect(rows.map((r) => [r.sendable, r.unsendable_reason])).toEqual([
      ...Array.from({ length: 7 }, () => [1, null]),
      [0, PHONE_REASONS.unassigned],
      [0, PHONE_REASONS.otherCountry],
    ]);
    for (const r of rows) {
      const a = assessPhone(r.phone);
      expect(r.sendable === 1, r.phone).toBe(a.sendable);
    }
  });
});
