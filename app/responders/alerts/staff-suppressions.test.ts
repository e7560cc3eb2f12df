import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { suppress } from "~/messaging/compliance.server";
import { uniqueTag } from "../../../tests/contact-factory";
import { call, createTestUser, db, loginAs } from "../../../tests/factories";
import { parseProfile } from "./alert-schema";
import { createProfile } from "./manage-alert-settings.server";

const suppressed = (address: string) =>
  db().get(sql`SELECT 1 AS x FROM suppressions WHERE channel = 'email' AND address = ${address}`);

describe("suppressed staff addresses on Smart Alerts (issue 23)", () => {
  it("are shown where alerts are configured and can be cleared; a homeowner's unsubscribe cannot be cleared from there", async () => {
    const now = new Date();
    const staff = `${uniqueTag("staff")}@helio.test`;
    const profile = await createProfile(
      db(),
      parseProfile({ name: `Closers ${uniqueTag("p")}`, keywords: uniqueTag("kw"), email: staff }),
      now,
    );
    await db().run(sql`UPDATE alert_profiles SET is_active = 0 WHERE id = ${profile.id}`);
    const homeowner = `${uniqueTag("home")}@example.com`;
    for (const address of [staff, homeowner])
      await suppress(db(), { channel: "email", address, reason: "email-unsubscribe", source: "one-click" }, now);
    // SALES_ALERT_EMAIL (vitest.config.ts) and a user's own address count as staff too.
    const user = await createTestUser();
    await suppress(db(), { channel: "email", address: user.email, reason: "email-unsubscribe" }, now);
    const cookie = await loginAs(user);

    const page = await (await call("/smart-alerts?tab=profiles", { cookie })).text();
    expect(page).toContain("Unsubscribed staff addresses");
    expect(page).toContain(staff);
    expect(page).toContain(user.email);
    expect(page).not.toContain(homeowner);

    const clear = (address: string) =>
      call("/smart-alerts?tab=profiles", {
        method: "POST",
        cookie,
        body: new URLSearchParams({ intent: "clear-suppression", address }),
      });
    expect((await clear(staff)).status).toBe(302);
    expect(await suppressed(staff)).toBeFalsy();
    const refused = await clear(homeowner);
    expect(refused.status).toBe(404);
    expect(await suppressed(homeowner)).toBeTruthy();
  });
});
