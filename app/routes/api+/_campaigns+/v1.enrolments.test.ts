import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { addCampaignContacts } from "~/campaigns/add-campaign-contacts.server";
import { createCampaign } from "~/campaigns/create-campaign.server";
import { enrollmentsPage } from "~/campaigns/list-campaign-enrollments.server";
import { campaignEnrollments, messages } from "~/db/schema";
import { call, createTestUser, db } from "../../../../tests/factories";
import { createTestContact } from "../../../../tests/contact-factory";
import { bearer, createTestApiKey } from "../../../../tests/api-key-factory";
import { plan } from "../../../../tests/query-plan";

type Enrolment = { id: number; contactId: number; status: string; stopReason: string | null; nextRunAt: string | null };

let userId = 0;
let keys = { read: "", send: "" };
beforeAll(async () => {
  userId = (await createTestUser()).id;
  keys = {
    read: (await createTestApiKey(userId, ["read"])).secret,
    send: (await createTestApiKey(userId, ["send"])).secret,
  };
});

async function campaignWith(n: number) {
  const campaign = await createCampaign(
    db(),
    { name: `Enrolments ${crypto.randomUUID().slice(0, 8)}` },
    { userId, role: "superuser", ipAddress: null },
    new Date(),
  );
  const contacts = [];
  for (let i = 0; i < n; i++) contacts.push(await createTestContact(userId));
  await addCampaignContacts(
    db(),
    campaign.id,
    contacts.map((c) => c.id),
    new Date(),
  );
  return { campaign, contacts };
}

const stop = (campaignId: number, contactId: number, key = keys.send) =>
  call(`/api/v1/campaigns/${campaignId}/enrolments/${contactId}/stop`, {
    method: "POST",
    json: {},
    headers: bearer(key),
  });

describe("GET /api/v1/campaigns/{id}/enrolments", () => {
  it("pages a campaign's enrolments by contact id, newest contacts first, only that campaign's", async () => {
    const { campaign, contacts } = await campaignWith(3);
    await campaignWith(1);
    const ids = contacts.map((c) => c.id).sort((a, b) => b - a);
    const get = async (q: string) => {
      const res = await call(`/api/v1/campaigns/${campaign.id}/enrolments${q}`, { headers: bearer(keys.read) });
      expect(res.status).toBe(200);
      return (await res.json()) as { data: Enrolment[]; nextCursor: number | null };
    };
    const first = await get("?limit=2");
    expect(first.data.map((e) => e.contactId)).toEqual(ids.slice(0, 2));
    expect(first.nextCursor).toBe(ids[1]);
    const rest = await get(`?limit=2&after=${first.nextCursor}`);
    expect(rest).toEqual({ data: [expect.objectContaining({ contactId: ids[2] })], nextCursor: null });
    expect((await call("/api/v1/campaigns/999999999/enrolments", { headers: bearer(keys.read) })).status).toBe(404);
  });

  it("reads one page through the (campaign, contact) unique index: a seek, no scan, no sort", async () => {
    for (const after of [null, 1000]) {
      const p = await plan(enrollmentsPage(db(), 1, { after, limit: 50 }).getSQL());
      expect(p).toMatch(
        /SEARCH campaign_enrollments USING INDEX campaign_enrollments_campaign_contact_uq \(campaign_id=\?/,
      );
      expect(p).not.toMatch(/SCAN|TEMP B-TREE/);
    }
  });
});

describe("POST /api/v1/campaigns/{id}/enrolments/{contactId}/stop", () => {
  it("stops the enrolment and skips its unsent step message; again is a no-op 200; other enrolments untouched", async () => {
    const { campaign, contacts } = await campaignWith(2);
    const [target, other] = contacts;
    const enrolment = (await db()
      .select()
      .from(campaignEnrollments)
      .where(eq(campaignEnrollments.contactId, target.id))
      .get())!;
    const [step] = await db()
      .insert(messages)
      .values({
        direction: "outbound",
        kind: "campaign",
        status: "queued",
        contactId: target.id,
        campaignId: campaign.id,
        enrollmentId: enrolment.id,
        phone: target.phone,
        content: "Step 1",
        idempotencyKey: `step:${enrolment.id}:1`,
      })
      .returning();
    const res = await stop(campaign.id, target.id);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Enrolment;
    expect(body).toMatchObject({ id: enrolment.id, contactId: target.id, status: "stopped", stopReason: "api" });
    expect(body.nextRunAt).toBeNull();
    expect((await db().select().from(messages).where(eq(messages.id, step.id)).get())!.status).toBe("skipped");
    const again = await stop(campaign.id, target.id);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(body);
    const untouched = await db()
      .select()
      .from(campaignEnrollments)
      .where(eq(campaignEnrollments.contactId, other.id))
      .get();
    expect(untouched!.status).not.toBe("stopped");
  });

  it("answers 404 for a contact not enrolled or no such campaign, 409 for a completed enrolment, 403 for a read key", async () => {
    const { campaign, contacts } = await campaignWith(1);
    const stranger = await createTestContact(userId);
    const notEnrolled = await stop(campaign.id, stranger.id);
    expect(notEnrolled.status).toBe(404);
    expect(await notEnrolled.json()).toEqual({ message: "This contact is not enrolled in the campaign" });
    expect(await (await stop(999999999, stranger.id)).json()).toEqual({ message: "Campaign not found" });
    await db()
      .update(campaignEnrollments)
      .set({ status: "completed" })
      .where(eq(campaignEnrollments.contactId, contacts[0].id));
    expect((await stop(campaign.id, contacts[0].id)).status).toBe(409);
    expect((await stop(campaign.id, contacts[0].id, keys.read)).status).toBe(403);
  });
});
