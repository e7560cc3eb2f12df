import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contacts } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { checkBroadcast } from "~/messaging/check-broadcast.server";
import { createTestContact, uniqueTag } from "../../tests/contact-factory";
import { createTestUser, db } from "../../tests/factories";
import { addCampaignContacts } from "./add-campaign-contacts.server";
import { addCampaignStep } from "./add-campaign-step.server";
import { checkStep, stepSchema } from "./campaign-schema";
import { campaignStartCsv, checkCampaignStart, selectWaitingEnrolments } from "./check-campaign-start.server";
import { selectCappedSends, selectCheckRows } from "~/messaging/check-broadcast.server";
import { plan } from "../../tests/query-plan";
import { createCampaign } from "./create-campaign.server";
import { startCampaign } from "./start-campaign.server";
import { recordingQueue } from "../../tests/messaging-harness";

// Tuesday 2026-11-24 20:00 UTC: noon in Los Angeles, 15:00 in New York.
const NOON_LA = new Date("2026-11-24T20:00:00Z");
const BASE = "https://helio.test";

const step = (fields: Record<string, unknown>) =>
  checkStep(stepSchema.parse({ name: "Step", content: "Hi", ...fields }));

async function world(fields: Record<string, unknown> = {}) {
  const user = await createTestUser({ firstName: "Rosa", lastName: "Lopez" });
  const actor = { userId: user.id, role: "superuser" as const, ipAddress: null };
  const tag = uniqueTag("Check");
  const contact = async (zone: string, state: string, extra: Record<string, unknown> = {}) => {
    const c = await createTestContact(user.id, { firstName: "Ana", lastName: tag, ...extra });
    await db().update(contacts).set({ timeZone: zone, state }).where(eq(contacts.id, c.id));
    return c;
  };
  const campaign = (extra: Record<string, unknown> = {}) =>
    createCampaign(db(), { name: "Winter savings", promoCode: "SUN50", ...fields, ...extra }, actor, NOON_LA);
  return { user, actor, tag, contact, campaign };
}

const csvRows = (csv: string) =>
  csv
    .trim()
    .split("\r\n")
    // Every cell is quoted (csvCell): "a","b",…
    .map((l) => l.slice(1, -1).split('","'));

/** The start check's CSV as a superuser downloads it, each row by its contact id (the first column). */
async function startCsvById(campaignId: number, userId: number) {
  const { csv } = await campaignStartCsv(db(), {
    campaignId,
    now: NOON_LA,
    publicBaseUrl: BASE,
    variables: [],
    viewer: { userId, role: "superuser" },
  });
  return new Map(
    csvRows(csv)
      .slice(1)
      .map((r) => [Number(r[0]), r]),
  );
}

describe("the campaign pre-start check (issue 29 item 4)", () => {
  it("judges the first step for each enrolled contact with the campaign's own variables; blanks counted, not skipped", async () => {
    const w = await world();
    const ana = await w.contact("America/Los_Angeles", "CA");
    const nameless = await w.contact("America/Los_Angeles", "CA", { firstName: "" });
    const opted = await w.contact("America/Los_Angeles", "CA");
    await db().update(contacts).set({ optedOutAt: NOON_LA }).where(eq(contacts.id, opted.id));
    const c = await w.campaign();
    await addCampaignContacts(db(), c.id, [ana.id, nameless.id, opted.id], NOON_LA);
    await addCampaignStep(
      db(),
      c.id,
      step({
        content: "Hi {{firstName}}, use {{promoCode}} for {{campaignName}}. {{salesRep}} here. Reply STOP to opt out",
      }),
      NOON_LA,
    );
    const r = await checkCampaignStart(db(), { campaignId: c.id, now: NOON_LA, publicBaseUrl: BASE, variables: [] });
    expect(r.step).toMatchObject({ number: 1, type: "sms", delay: "Immediate", dueAt: NOON_LA.toISOString() });
    expect(r.audience).toEqual({ checked: 3, truncated: false });
    expect(r.check!.recipients).toBe(2);
    expect(r.check!.skipped).toMatchObject({ optedOut: 1, missingVariable: 0, total: 1 });
    // A step goes with the blank: the contact without a first name is sent, and counted.
    expect(r.check!.missingByVariable).toEqual({ firstName: 1 });
    // {{promoCode}}, {{campaignName}} from the campaign, {{salesRep}} from its creator: nothing unfilled.
    expect(r.check!.warnings.map((x) => x.code)).toEqual([]);

    const byId = await startCsvById(c.id, w.user.id);
    expect(byId.get(ana.id)?.[5]).toBe("Sends");
    expect(byId.get(nameless.id)?.[5]).toBe("Sends");
    expect(byId.get(nameless.id)?.[8]).toBe("Blank: {{firstName}}");
    expect(byId.get(opted.id)?.[5]).toBe("Skipped: opted out");
  });

  it("times the step from the scheduled start plus its delay, through its weekday window in each contact's zone", async () => {
    const w = await world();
    const la = await w.contact("America/Los_Angeles", "CA");
    const ny = await w.contact("America/New_York", "NY");
    // Starts Friday noon in Los Angeles; the step waits a day: Saturday, outside its weekday window.
    const c = await w.campaign({ scheduledAt: new Date("2026-11-27T20:00:00.000Z") });
    await addCampaignContacts(db(), c.id, [la.id, ny.id], NOON_LA);
    await addCampaignStep(
      db(),
      c.id,
      step({
        content: "Hi {{firstName}}, Reply STOP to opt out",
        delayDays: 1,
        windowStart: "10:00",
        windowEnd: "17:00",
        windowWeekdays: true,
      }),
      NOON_LA,
    );
    const r = await checkCampaignStart(db(), { campaignId: c.id, now: NOON_LA, publicBaseUrl: BASE, variables: [] });
    expect(r.step).toMatchObject({ delay: "1d", dueAt: "2026-11-28T20:00:00.000Z" });
    expect(r.step!.window).toBe("10:00–17:00, weekdays in the contact's time");
    const byId = await startCsvById(c.id, w.user.id);
    // Monday 10:00 where each contact lives.
    expect(byId.get(la.id)?.[6]).toBe("2026-11-30T18:00:00.000Z");
    expect(byId.get(ny.id)?.[6]).toBe("2026-11-30T15:00:00.000Z");
    expect(byId.get(ny.id)?.[7]).toContain("10:00");
  });

  it("includes the audience enrolled at start (a contacts search); warns of a campaign variable with no value", async () => {
    const w = await world({ promoCode: undefined });
    const a = await w.contact("America/Los_Angeles", "CA");
    const b = await w.contact("America/Los_Angeles", "CA");
    const other = await createTestContact(w.user.id, { lastName: uniqueTag("Elsewhere") });
    const c = await w.campaign({ promoCode: undefined, audienceQuery: w.tag });
    await addCampaignStep(db(), c.id, step({ content: "{{promoCode}} for you. Reply STOP to opt out" }), NOON_LA);
    const r = await checkCampaignStart(db(), { campaignId: c.id, now: NOON_LA, publicBaseUrl: BASE, variables: [] });
    expect(r.audience.checked).toBe(2);
    const ids = [...(await startCsvById(c.id, w.user.id)).keys()];
    expect(ids.sort()).toEqual([a.id, b.id].sort());
    expect(ids).not.toContain(other.id);
    expect(r.check!.warnings).toContainEqual({
      code: "unfilled_variable",
      message:
        "No value for {{promoCode}} (the campaign's details): fill it in or add a fallback such as {{promoCode|…}}.",
    });
  });

  it("a campaign without an active step has nothing to judge; a started campaign is not checked", async () => {
    const w = await world();
    const a = await w.contact("America/Los_Angeles", "CA");
    const c = await w.campaign();
    await addCampaignContacts(db(), c.id, [a.id], NOON_LA);
    const r = await checkCampaignStart(db(), { campaignId: c.id, now: NOON_LA, publicBaseUrl: BASE, variables: [] });
    expect(r.step).toBeNull();
    expect(r.check).toBeNull();
    await addCampaignStep(db(), c.id, step({ content: "Hi. Reply STOP to opt out" }), NOON_LA);
    await startCampaign(db(), recordingQueue(), c.id, w.actor, NOON_LA);
    const err = await checkCampaignStart(db(), {
      campaignId: c.id,
      now: NOON_LA,
      publicBaseUrl: BASE,
      variables: [],
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("conflict");
  });
});

describe("the broadcast check renders as the consumer does (sender, organisation, custom fields)", () => {
  it("a custom field the contact has and the sender's name are values, not missing variables", async () => {
    const u = await createTestUser({ firstName: "Rosa", lastName: "Lopez" });
    // roofSize: a typed-only field (the Solar estimate's variables are computed, never missing: decision 074).
    const has = await createTestContact(u.id, { customFields: { roofSize: "1,800 sq ft" } });
    const lacks = await createTestContact(u.id);
    for (const id of [has.id, lacks.id])
      await db().update(contacts).set({ timeZone: "America/Los_Angeles", state: "CA" }).where(eq(contacts.id, id));
    const check = await checkBroadcast(
      db(),
      {
        type: "sms",
        content: "{{salesRep}} here: your {{roofSize}} roof design is ready. Reply STOP to opt out",
        contactIds: [has.id, lacks.id],
        senderId: u.id,
      },
      NOON_LA,
    );
    expect(check.recipients).toBe(1);
    expect(check.skipped.missingVariable).toBe(1);
    expect(check.missingByVariable).toEqual({ roofSize: 1 });
    expect(check.warnings).toEqual([]);
    // Without a sender, {{salesRep}} is the message's problem, not each recipient's: one warning.
    const noSender = await checkBroadcast(
      db(),
      { type: "sms", content: "{{salesRep}} here. Reply STOP to opt out", contactIds: [has.id] },
      NOON_LA,
    );
    expect(noSender.recipients).toBe(1);
    expect(noSender.warnings.map((x) => x.code)).toEqual(["unfilled_variable"]);
  });
});

describe("the check's reads (query plans): O(recipients), never a scan of contacts or messages", () => {
  it("a draft's enrolled contacts seek campaign_enrollments_campaign_status_idx", async () => {
    const p = await plan(selectWaitingEnrolments(db(), 7, 0, 5000).getSQL());
    expect(p).toMatch(/SEARCH campaign_enrollments USING INDEX campaign_enrollments_campaign_status_idx/);
    expect(p).not.toMatch(/SCAN campaign_enrollments/);
  });

  it("each chunk's contacts by primary key, their suppressions and first touch by index; the capped texts by messages_capped_sent_idx", async () => {
    for (const email of [false, true]) {
      const p = await plan(selectCheckRows(db(), [1, 2, 3], email).getSQL());
      expect(p).toMatch(/SEARCH c USING INTEGER PRIMARY KEY/);
      expect(p).toMatch(/SEARCH s USING (COVERING )?INDEX/);
      expect(p).toMatch(/SEARCH m USING (COVERING )?INDEX/);
      expect(p).not.toMatch(/SCAN (c|s|m)\b/);
    }
    const capped = await plan(selectCappedSends(db(), ["+15555550100"], 0).getSQL());
    expect(capped).toMatch(/messages_capped_sent_idx/);
    expect(capped).not.toMatch(/SCAN m\b/);
  });
});
