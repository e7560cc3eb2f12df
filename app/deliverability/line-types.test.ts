import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEFAULT_CAP_LIMITS } from "~/caps/caps";
import { PHONE_REASONS } from "~/contacts/phone";
import { updateContact } from "~/contacts/update-contact.server";
import { contacts } from "~/db/schema";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { createTestContact, uniquePhone } from "../../tests/contact-factory";
import { createTestUser, db } from "../../tests/factories";
import { appHooks, DAYTIME, messageRow, pipeline, queueMessage } from "../../tests/messaging-harness";
import { plan } from "../../tests/query-plan";
import { checkLineTypes, selectDueLineTypes } from "./check-line-types.server";

// Issue 29 item 6, decision 069: the newest numbers never looked up go to Twilio Lookup v2 (the fake on loopback
// speaks its wire format), within the day's cap; a landline is marked not sendable, and stays so.
const limits = (perDay: number) => async () => ({ ...DEFAULT_CAP_LIMITS, lineTypeLookupsPerDay: perDay });
const row = (id: number) =>
  db()
    .select({
      lineType: contacts.lineType,
      checked: contacts.lineTypeCheckedAt,
      sendable: contacts.sendable,
      reason: contacts.unsendableReason,
    })
    .from(contacts)
    .where(eq(contacts.id, id))
    .get();

async function world() {
  const p = await pipeline({ clock: () => DAYTIME });
  const user = await createTestUser();
  const make = async () => createTestContact(user.id, { phone: uniquePhone(), state: "AZ" });
  // Whatever earlier tests left due is looked up first (newest first), then these.
  await checkLineTypes({ db: db(), sms: p.deps.sms, now: DAYTIME, capLimits: limits(100_000) }, 10_000);
  return { ...p, user, make };
}

describe("line-type lookup (decision 069)", () => {
  it("is off by default: no lookup is made, and the local outbox has none to make", async () => {
    const w = await world();
    const c = await w.make();
    const before = await w.twilio.lookups();
    expect(await checkLineTypes({ db: db(), sms: w.deps.sms, now: DAYTIME })).toEqual({ looked: 0, landlines: 0 });
    expect(await w.twilio.lookups()).toBe(before);
    expect((await row(c.id))?.checked).toBeNull();
  });

  it("marks a landline not sendable and keeps the others' types; each number is looked up once", async () => {
    const w = await world();
    const [landline, mobile, voip] = [await w.make(), await w.make(), await w.make()];
    const before = await w.twilio.lookups();
    await w.twilio.setLineTypes({ [landline.phone!]: "landline", [voip.phone!]: "nonFixedVoip" });
    const r = await checkLineTypes({ db: db(), sms: w.deps.sms, now: DAYTIME, capLimits: limits(1000) });
    expect(r).toEqual({ looked: 3, landlines: 1 });
    expect(await row(landline.id)).toMatchObject({
      lineType: "landline",
      sendable: false,
      reason: PHONE_REASONS.landline,
    });
    expect(await row(mobile.id)).toMatchObject({ lineType: "mobile", sendable: true, reason: null });
    expect(await row(voip.id)).toMatchObject({ lineType: "voip", sendable: true });
    expect((await w.twilio.lookups()) - before).toBe(3);
    expect(await checkLineTypes({ db: db(), sms: w.deps.sms, now: DAYTIME, capLimits: limits(1000) })).toEqual({
      looked: 0,
      landlines: 0,
    });
    expect((await w.twilio.lookups()) - before).toBe(3);

    // Every send path skips it: the consumer's compliance check reads `sendable`.
    const id = await queueMessage(
      w.deps,
      w.queue,
      { kind: "individual", contactId: landline.id, phone: landline.phone, content: "Hi, solar?" },
      DAYTIME,
      appHooks,
    );
    await sendMessages(w.queue.takeSendJobs(), w.deps);
    expect(await messageRow(id!)).toMatchObject({ status: "skipped", error_message: PHONE_REASONS.landline });
    expect((await w.twilio.calls()).filter((c) => c.to === landline.phone)).toEqual([]);
  });

  it("a landline stays unsendable when its record is edited; a new number is looked up again", async () => {
    const w = await world();
    const c = await w.make();
    await w.twilio.setLineTypes({ [c.phone!]: "landline" });
    await checkLineTypes({ db: db(), sms: w.deps.sms, now: DAYTIME, capLimits: limits(1000) });
    const viewer = { userId: w.user.id, role: "superuser" as const };
    // The form re-assesses `sendable` from the number's format on every save: the trigger keeps the landline's.
    await updateContact(db(), c.id, { firstName: "Edited", lastName: "Lee", phone: c.phone }, viewer, DAYTIME);
    expect(await row(c.id)).toMatchObject({ lineType: "landline", sendable: false, reason: PHONE_REASONS.landline });
    const mobile = uniquePhone();
    await updateContact(db(), c.id, { firstName: "Edited", lastName: "Lee", phone: mobile }, viewer, DAYTIME);
    expect(await row(c.id)).toMatchObject({ lineType: null, checked: null, sendable: true, reason: null });
    await checkLineTypes({ db: db(), sms: w.deps.sms, now: DAYTIME, capLimits: limits(1000) });
    expect(await row(c.id)).toMatchObject({ lineType: "mobile", sendable: true });
  });

  it("stops at the day's cap, newest first, and goes on the next day", async () => {
    const w = await world();
    const made = [await w.make(), await w.make(), await w.make()];
    const perDay = 2;
    const dayOne = new Date("2026-11-30T18:00:00Z");
    expect(await checkLineTypes({ db: db(), sms: w.deps.sms, now: dayOne, capLimits: limits(perDay) })).toMatchObject({
      looked: 2,
    });
    expect(await checkLineTypes({ db: db(), sms: w.deps.sms, now: dayOne, capLimits: limits(perDay) })).toMatchObject({
      looked: 0,
    });
    const checked = await db()
      .select({ id: contacts.id, checked: contacts.lineTypeCheckedAt })
      .from(contacts)
      .where(
        inArray(
          contacts.id,
          made.map((m) => m.id),
        ),
      );
    expect(
      checked
        .filter((c) => c.checked)
        .map((c) => c.id)
        .sort(),
    ).toEqual([made[1].id, made[2].id].sort());
    const dayTwo = new Date("2026-12-01T18:00:00Z");
    expect(await checkLineTypes({ db: db(), sms: w.deps.sms, now: dayTwo, capLimits: limits(perDay) })).toMatchObject({
      looked: 1,
    });
  });

  it("a busy Twilio ends the run with nothing marked; a number Lookup does not know is not asked again", async () => {
    const w = await world();
    const c = await w.make();
    await w.twilio.failNext(1, 429);
    expect(await checkLineTypes({ db: db(), sms: w.deps.sms, now: DAYTIME, capLimits: limits(1000) })).toMatchObject({
      looked: 0,
    });
    expect((await row(c.id))?.checked).toBeNull();
    // Twilio's 404 for a number it cannot look up: a permanent answer, recorded as unknown.
    const odd = await w.make();
    await db().update(contacts).set({ phone: "+1555" }).where(eq(contacts.id, odd.id));
    await checkLineTypes({ db: db(), sms: w.deps.sms, now: DAYTIME, capLimits: limits(1000) });
    expect(await row(odd.id)).toMatchObject({ lineType: "unknown", sendable: true });
    expect(await row(c.id)).toMatchObject({ lineType: "mobile" });
  });

  it("reads the due numbers through their partial index, newest first", async () => {
    const p = await plan(selectDueLineTypes(db(), 100).getSQL());
    expect(p).toMatch(/USING (COVERING )?INDEX contacts_line_type_due_idx/);
    expect(p).not.toMatch(/USE TEMP B-TREE/);
  });
});
