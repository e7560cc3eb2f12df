import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createCampaign } from "~/campaigns/create-campaign.server";
import { uniqueTag } from "../../../../tests/contact-factory";
import { call, createTestUser, db, loginAs } from "../../../../tests/factories";

// The Lead triggers screen through the Worker, as a browser without JavaScript uses it: plain form posts.
describe("Lead triggers screen (no JS)", () => {
  it("a superuser creates a rule, disables, enables and deletes it; a standard user is refused", async () => {
    const admin = await createTestUser({ role: "superuser" });
    const cookie = await loginAs(admin);
    const campaign = await createCampaign(
      db(),
      { name: uniqueTag("Lead seq ") },
      { userId: admin.id, role: "superuser", ipAddress: null },
      new Date(),
    );
    const name = uniqueTag("Rule ");
    const post = (form: Record<string, string>, c = cookie) =>
      call("/lead-triggers", { method: "POST", body: new URLSearchParams(form), cookie: c, redirect: "manual" });

    const page = await call("/lead-triggers", { cookie });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(campaign.name);

    // A name is required; the reply re-renders the form with the error and what was typed.
    const invalid = await post({ intent: "create", name: "", source: "EnergySage", campaignId: String(campaign.id) });
    expect(invalid.status).toBe(400);
    const html = await invalid.text();
    expect(html).toContain("Please enter a name for the rule");
    expect(html).toContain('value="EnergySage"');

    const created = await post({ intent: "create", name, source: " EnergySage ", campaignId: String(campaign.id) });
    expect(created.status).toBe(302);
    const rule = await db().get<{
      id: number;
      match_key: string;
      match_value: string;
      enabled: number;
      created_by: number;
    }>(sql`SELECT id, match_key, match_value, enabled, created_by FROM sequence_triggers WHERE name = ${name}`);
    expect(rule).toMatchObject({
      match_key: "energysage",
      match_value: "EnergySage",
      enabled: 1,
      created_by: admin.id,
    });
    const listed = await (await call("/lead-triggers", { cookie })).text();
    expect(listed).toContain(name);
    expect(listed).toContain("New lead from EnergySage");

    expect((await post({ intent: "disable", id: String(rule!.id) })).status).toBe(302);
    expect(
      (await db().get<{ enabled: number }>(sql`SELECT enabled FROM sequence_triggers WHERE id = ${rule!.id}`))?.enabled,
    ).toBe(0);
    expect((await post({ intent: "enable", id: String(rule!.id) })).status).toBe(302);
    expect(
      (await db().get<{ enabled: number }>(sql`SELECT enabled FROM sequence_triggers WHERE id = ${rule!.id}`))?.enabled,
    ).toBe(1);

    const user = await createTestUser();
    const userCookie = await loginAs(user);
    expect((await call("/lead-triggers", { cookie: userCookie, redirect: "manual" })).status).toBe(403);
    expect((await post({ intent: "delete", id: String(rule!.id) }, userCookie)).status).toBe(403);

    expect((await post({ intent: "delete", id: String(rule!.id) })).status).toBe(302);
    expect(await db().get(sql`SELECT id FROM sequence_triggers WHERE id = ${rule!.id}`)).toBeFalsy();
    const log = await db().all<{ action: string }>(
      sql`SELECT action FROM activity_log WHERE user_id = ${admin.id} AND action LIKE '%lead_trigger' ORDER BY id`,
    );
    expect(log.map((l) => l.action)).toEqual([
      "create_lead_trigger",
      "update_lead_trigger",
      "update_lead_trigger",
      "delete_lead_trigger",
    ]);
  });
});

describe("speed-to-lead figures on the screens (no JS)", () => {
  it("the Dashboard shows both medians for the chosen period; User Analytics shows them for the selected rep", async () => {
    const admin = await createTestUser({ role: "superuser" });
    const cookie = await loginAs(admin);
    const dashboard = await call("/?range=7", { cookie });
    expect(dashboard.status).toBe(200);
    const html = await dashboard.text();
    expect(html).toContain("Lead to first text");
    expect(html).toContain("First reply to answer");
    // The chosen period is the current link (a plain link per period: no JS needed).
    expect(html).toMatch(
      /<a[^>]*href="\/\?range=7"[^>]*aria-current="page"|<a[^>]*aria-current="page"[^>]*href="\/\?range=7"/,
    );
    const details = await call(`/user-analytics?tab=details&user=${admin.id}&range=90`, { cookie });
    expect(details.status).toBe(200);
    const text = await details.text();
    expect(text).toContain("Speed to lead: ");
    expect(text).toContain("Lead to first text");
  });
});
