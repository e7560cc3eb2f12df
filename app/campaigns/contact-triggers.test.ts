import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookAppointment } from "~/appointments/book-appointment.server";
import { setAppointmentStatus } from "~/appointments/set-appointment-status.server";
import { setContactStage } from "~/contacts/set-contact-stage.server";
import { addContactTag } from "~/contacts/add-contact-tag.server";
import { removeContactTag } from "~/contacts/remove-contact-tag.server";
import { selectContactTags } from "~/contacts/list-contact-tags.server";
import { tagField } from "~/contacts/contact-tag";
import { listContacts, selectTagPage } from "~/contacts/list-contacts.server";
import { plan } from "../../tests/query-plan";
import { createRuleSchema } from "./sequence-trigger-schema";
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

describe("tags (issue 28 item 1): a contact tagged starts the tag's sequence", () => {
  it("adds a tag once (any case), starts the rule's sequence, removes it; bounded and scoped", async () => {
    const w = await world();
    const c = await createCampaign(db(), { name: uniqueTag("Seq ") }, w.actor, w.now);
    await addCampaignStep(db(), c.id, checkStep(stepSchema.parse({ name: "Hi", content: "Hi {{firstName}}!" })), w.now);
    const rule = createRuleSchema.parse({
      name: uniqueTag("Rule "),
      on: "tag.added",
      tag: "  Roof  Replaced ",
      campaignId: c.id,
    });
    await createSequenceTrigger(db(), rule, w.actor, w.now);
    await startCampaign(db(), w.queue, c.id, w.actor, w.now);
    expect((await listSequenceTriggers(db())).find((r) => r.campaignId === c.id)?.description).toBe(
      "Gets the tag “roof replaced”",
    );

    const contact = await createTestContact(w.user.id);
    const tag = tagField.parse("ROOF replaced");
    expect(await addContactTag(db(), { contactId: contact.id, tag }, w.actor, w.now, w.hooks)).toEqual({ added: true });
    expect(await w.enrolled(c.id, contact.id)).toBe(1);
    // Again, in another case: no change, no second enrolment.
    expect(
      await addContactTag(
        db(),
        { contactId: contact.id, tag: tagField.parse("Roof Replaced") },
        w.actor,
        w.now,
        w.hooks,
      ),
    ).toEqual({ added: false });
    await addContactTag(db(), { contactId: contact.id, tag: tagField.parse("hoa") }, w.actor, w.now, w.hooks);
    expect((await selectContactTags(db(), contact.id)).map((r) => r.tag)).toEqual(["hoa", "roof replaced"]);
    expect(await w.enrolled(c.id, contact.id)).toBe(1);
    expect(await removeContactTag(db(), { contactId: contact.id, tag: "hoa" }, w.actor, w.now)).toEqual({
      removed: true,
    });
    expect((await selectContactTags(db(), contact.id)).map((r) => r.tag)).toEqual(["roof replaced"]);

    // Bounded: the form's rule, and at most 20 tags a contact.
    expect(tagField.safeParse("").success).toBe(false);
    expect(tagField.safeParse("x".repeat(41)).success).toBe(false);
    expect(tagField.safeParse("<script>").success).toBe(false);
    for (let i = 0; i < 19; i++)
      await addContactTag(db(), { contactId: contact.id, tag: `t${i}` }, w.actor, w.now, w.hooks);
    await expect(
      addContactTag(db(), { contactId: contact.id, tag: "one too many" }, w.actor, w.now, w.hooks),
    ).rejects.toMatchObject({ code: "conflict", message: "A contact can have at most 20 tags: remove one first" });

    // The list by tag (decision 073): newest first, paged, along contact_tags_tag_idx — never a walk of contacts.
    const more = [await createTestContact(w.user.id), await createTestContact(w.user.id)];
    for (const m of more) await addContactTag(db(), { contactId: m.id, tag: "roof replaced" }, w.actor, w.now, w.hooks);
    const first = await listContacts(db(), { tag: "roof replaced", limit: 2, viewer: w.actor });
    expect(first.contacts.map((x) => x.id)).toEqual([more[1].id, more[0].id]);
    const second = await listContacts(db(), {
      tag: "roof replaced",
      limit: 2,
      after: first.nextCursor,
      viewer: w.actor,
    });
    expect(second.contacts.map((x) => x.id)).toEqual([contact.id]);
    expect((await listContacts(db(), { tag: "solar", viewer: w.actor })).contacts).toEqual([]);
    const p = await plan(selectTagPage(db(), "roof replaced", undefined, { after: 999 }, false, 26).getSQL());
    expect(p).toMatch(/SEARCH contact_tags USING COVERING INDEX contact_tags_tag_idx \(tag=\? AND contact_id<\?\)/);
    expect(p).toMatch(/SEARCH contacts USING INTEGER PRIMARY KEY/);
    expect(p).not.toMatch(/SCAN contacts|USE TEMP B-TREE/);

    // Another rep's contact is not found (decision 048).
    const other = await createTestUser();
    const theirs = await createTestContact(other.id);
    await db().update(contacts).set({ ownerUserId: other.id }).where(eq(contacts.id, theirs.id));
    const rep = { userId: w.user.id, role: "user" as const, ipAddress: null };
    await expect(addContactTag(db(), { contactId: theirs.id, tag: "hoa" }, rep, w.now, w.hooks)).rejects.toMatchObject({
      code: "not_found",
    });
  });
});
