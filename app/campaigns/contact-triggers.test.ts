import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookAppointment } from "~/appointments/book-appointment.server";
import { setAppointmentStatus } from "~/appointments/set-appointment-status.server";
import { setContactStage } from "~/contacts/set-contact-stage.server";
import { campaignEnrollments, contacts } from "~/db/schema";
import { contactEventHooks } from "~/wiring/contact-event-hooks.server";
import { createTestContact, uniqueTag } from "../../tests/contact-factory";
import { createTestUser, db } from "../../tests/factories";
import { recordingQueue } from "../../tests/messaging-harness";
import { addCampaignStep } from "./add-campaign-step.server";
import { checkStep, stepSchema } from "./campaign-schema";
import { createCampaign } from "./create-campaign.server";
import { createSequenceTrigger, listSequenceTriggers } from "./manage-sequence-triggers.server";
import { startCampaign } from "./start-campaign.server";

// Decision 059: a stage reached or an appointment missed starts the sequences whose rule matches, through the
// contact-event hooks the composition root wires (the routes pass them; tests use the same wiring).
async function world() {
  const queue = recordingQueue();
  const user = await createTestUser();
  const actor = { userId: user.id, role: "superuser" as const, ipAddress: null };
  const now = new Date();
  async function sequence(rule: { on: "stage.changed"; stage: string } | { on: "appointment.no_show" }) {
    const c = await createCampaign(db(), { name: uniqueTag("Seq ") }, actor, now);
    await addCampaignStep(db(), c.id, checkStep(stepSchema.parse({ name: "Hi", content: "Hi {{firstName}}!" })), now);
    await createSequenceTrigger(
      db(),
      { name: uniqueTag("Rule "), source: null, campaignId: c.id, ...rule },
      actor,
      now,
    );
    await startCampaign(db(), queue, c.id, actor, now);
    return c.id;
  }
  const enrolled = async (campaignId: number, contactId: number) =>
    (
      await db()
        .select({ id: campaignEnrollments.id })
        .from(campaignEnrollments)
        .where(and(eq(campaignEnrollments.campaignId, campaignId), eq(campaignEnrollments.contactId, contactId)))
    ).length;
  return { queue, user, actor, now, sequence, enrolled, hooks: contactEventHooks(queue) };
}

describe("sequences started by a stage or a no-show (decision 059)", () => {
  it("a contact moved to Sat by hand starts the Sat rule's sequence; another stage does not", async () => {
    const w = await world();
    const satSeq = await w.sequence({ on: "stage.changed", stage: "sat" });
    const [a, b] = [await createTestContact(w.user.id), await createTestContact(w.user.id)];
    await setContactStage(db(), { contactIds: [a.id], stage: "sat" }, w.actor, w.now, w.hooks);
    await setContactStage(db(), { contactIds: [b.id], stage: "lost" }, w.actor, w.now, w.hooks);
    expect(await w.enrolled(satSeq, a.id)).toBe(1);
    expect(await w.enrolled(satSeq, b.id)).toBe(0);
    // Moving there again changes nothing (and enrols nothing twice).
    await setContactStage(db(), { contactIds: [a.id], stage: "sat" }, w.actor, w.now, w.hooks);
    expect(await w.enrolled(satSeq, a.id)).toBe(1);
    const listed = (await listSequenceTriggers(db())).find((r) => r.campaignId === satSeq);
    expect(listed?.description).toBe("Moves to Sat");
  });

  it("booking moves New → Appointment set and starts its rule; a no-show starts the recovery sequence", async () => {
    const w = await world();
    const setSeq = await w.sequence({ on: "stage.changed", stage: "appointment_set" });
    const recovery = await w.sequence({ on: "appointment.no_show" });
    const contact = await createTestContact(w.user.id);
    await db().update(contacts).set({ ownerUserId: w.user.id }).where(eq(contacts.id, contact.id));
    const { id } = await bookAppointment(
      { db: db(), queue: w.queue, now: w.now },
      {
        contactId: contact.id,
        startsAt: new Date(w.now.getTime() + 86_400_000),
        timeZone: "UTC",
        closerUserId: null,
        location: null,
        meetingLink: null,
        note: null,
      },
      w.actor,
      w.hooks,
    );
    expect(await w.enrolled(setSeq, contact.id)).toBe(1);
    expect(await w.enrolled(recovery, contact.id)).toBe(0);
    await setAppointmentStatus(
      db(),
      { contactId: contact.id, appointmentId: id, status: "no_show" },
      w.actor,
      w.now,
      w.hooks,
    );
    expect(await w.enrolled(recovery, contact.id)).toBe(1);
  });
});
