import { describe, expect, it } from "vitest";
import { eq, isNull, or, sql } from "drizzle-orm";
import { contacts } from "~/db/schema";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { createCampaign } from "./create-campaign.server";
import { createTestContact, uniqueTag } from "../../tests/contact-factory";
import { countContacts } from "~/contacts/list-contacts.server";
import { countMatchingContacts } from "./count-matching-contacts.server";
import { localToUtc } from "./local-time";

describe("localToUtc (the create dialog's start time)", () => {
  it("reads the wall time in the given zone, across DST", () => {
    expect(localToUtc("2026-12-01T09:30", "America/Los_Angeles")?.toISOString()).toBe("2026-12-01T17:30:00.000Z"); // PST
    expect(localToUtc("2026-07-01T09:30", "America/Los_Angeles")?.toISOString()).toBe("2026-07-01T16:30:00.000Z"); // PDT
    expect(localToUtc("2026-03-08T12:00", "America/New_York")?.toISOString()).toBe("2026-03-08T16:00:00.000Z"); // the day DST starts
    expect(localToUtc("2026-12-01T09:30", "UTC")?.toISOString()).toBe("2026-12-01T09:30:00.000Z");
  });
  it("refuses a malformed time or an unknown zone", () => {
    expect(localToUtc("2026-13-01T09:30", "UTC")).toBeNull();
    expect(localToUtc("tomorrow", "UTC")).toBeNull();
    expect(localToUtc("2026-12-01T09:30", "Mars/Olympus")).toBeNull();
  });
});

describe("countMatchingContacts (select all N matching)", () => {
  it("uses the maintained total without a search and counts a search's matches", async () => {
    const user = await createTestUser();
    const tag = uniqueTag("Pick");
    for (let i = 0; i < 3; i++) await createTestContact(user.id, { lastName: tag });
    expect(await countMatchingContacts(db(), tag)).toEqual({ n: 3, more: false });
    expect(await countMatchingContacts(db(), uniqueTag("none"))).toEqual({ n: 0, more: false });
    expect(await countMatchingContacts(db(), "")).toEqual({ n: await countContacts(db()), more: false });
  });

  it("counts what a standard user's 'all matching' would enrol: their own and unowned contacts (decision 048)", async () => {
    const rep = await createTestUser({ role: "user" });
    const other = await createTestUser({ role: "user" });
    const tag = uniqueTag("Mine");
    const owned = async (owner: number | null, lastName: string) => {
      const c = await createTestContact(rep.id, { lastName });
      await db().update(contacts).set({ ownerUserId: owner }).where(eq(contacts.id, c.id));
    };
    for (const owner of [rep.id, rep.id, null, other.id, other.id, other.id]) await owned(owner, tag);
    await owned(rep.id, "Zz"); // a two-letter search takes the LIKE path, not FTS
    const viewer = { userId: rep.id, role: "user" as const };
    expect(await countMatchingContacts(db(), tag, viewer)).toEqual({ n: 3, more: false });
    expect(await countMatchingContacts(db(), tag)).toEqual({ n: 6, more: false });
    expect(await countMatchingContacts(db(), "Zz", viewer)).toEqual({ n: 1, more: false });
    const total = await countMatchingContacts(db(), "", viewer);
    expect(total.n).toBe(
      await db().$count(contacts, or(isNull(contacts.ownerUserId), eq(contacts.ownerUserId, rep.id))),
    );
  });
});

describe("the campaign screens' actions are in the activity log (issue 14)", () => {
  it("edit, add contacts, add / edit / switch / delete a step, delete: one entry each, by the acting user", async () => {
    const user = await createTestUser();
    const cookie = await loginAs(user);
    const c = await createCampaign(
      db(),
      { name: `Logged ${uniqueTag("c")}` },
      { userId: user.id, role: "superuser", ipAddress: null },
      new Date(),
    );
    const contact = await createTestContact(user.id);
    const post = (path: string, form: Record<string, string>) =>
      call(path, { method: "POST", body: new URLSearchParams(form), cookie, redirect: "manual" });
    expect(
      (await post(`/campaigns/${c.id}/edit`, { name: "Renamed", description: "", promoCode: "", offerExpiration: "" }))
        .status,
    ).toBe(302);
    expect((await post(`/campaigns/${c.id}/contacts`, { contactIds: String(contact.id) })).status).toBe(302);
    expect(
      (
        await post(`/campaigns/${c.id}/steps`, {
          intent: "add",
          name: "Intro",
          messageType: "sms",
          content: "Hi {{firstName}}",
          delayDays: "0",
          delayHours: "0",
        })
      ).status,
    ).toBe(302);
    const step = await db().get<{ id: number }>(sql`SELECT id FROM campaign_steps WHERE campaign_id = ${c.id}`);
    expect(
      (await post(`/campaigns/${c.id}/steps`, { intent: "toggle", stepId: String(step!.id), isActive: "false" }))
        .status,
    ).toBe(302);
    expect((await post(`/campaigns/${c.id}/steps`, { intent: "delete", stepId: String(step!.id) })).status).toBe(302);
    expect((await post(`/campaigns/${c.id}/delete`, {})).status).toBe(302);
    const rows = await db().all<{ action: string }>(
      sql`SELECT action FROM activity_log WHERE user_id = ${user.id} AND action NOT IN ('login', 'create_campaign', 'create_contact') ORDER BY id`,
    );
    expect(rows.map((r) => r.action)).toEqual([
      "update_campaign",
      "add_campaign_contacts",
      "create_campaign_step",
      "update_campaign_step",
      "delete_campaign_step",
      "delete_campaign",
    ]);
  });
});
