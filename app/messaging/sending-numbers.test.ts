import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addCampaignContacts } from "~/campaigns/add-campaign-contacts.server";
import { addCampaignStep } from "~/campaigns/add-campaign-step.server";
import { checkStep, stepSchema } from "~/campaigns/campaign-schema";
import { createCampaign } from "~/campaigns/create-campaign.server";
import { dispatchDueSteps } from "~/campaigns/dispatch-due-steps.server";
import { runEnrollmentJob } from "~/campaigns/run-enrollment-job.server";
import { startCampaign } from "~/campaigns/start-campaign.server";
import { setContactOwner } from "~/contacts/set-contact-owner.server";
import { contacts, senderPacing, users } from "~/db/schema";
import type { EnrollCampaignJob, SendJob } from "~/jobs/jobs";
import { isAppError } from "~/lib/app-error";
import { setSendingNumber } from "~/users/set-sending-number.server";
import { createTestContact, uniquePhone, uniqueTag } from "../../tests/contact-factory";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { appHooks, DAYTIME, pipeline, recordingQueue, runInboundJob } from "../../tests/messaging-harness";
import { sendMessages } from "./consume-send-batch.server";
import { enqueueDueMessages } from "./enqueue-due-messages.server";
import { createTwilioSms } from "./providers/twilio.server";
import { receiveInboundSms } from "./receive-inbound.server";
import { sendIndividual } from "./send-individual.server";

// Numbers per rep (issue 27 item 3, decision 045): which number each SMS goes from, checked at the fake Twilio,
// which records the From of every send.

const NOW = DAYTIME;

/** A rep with their own sending number (set straight on the row: the domain's checks are tested below). */
async function rep(number: string | null = uniquePhone()) {
  const u = await createTestUser();
  if (number) await db().update(users).set({ smsSender: number }).where(eq(users.id, u.id));
  return { ...u, number };
}

async function contactOwnedBy(ownerUserId: number | null) {
  const c = await createTestContact((await createTestUser()).id, { state: "AZ", phone: uniquePhone(["602", "480"]) });
  if (ownerUserId) await db().update(contacts).set({ ownerUserId }).where(eq(contacts.id, c.id));
  return c;
}

const stickyOf = async (contactId: number) =>
  (await db().select({ s: contacts.smsSender }).from(contacts).where(eq(contacts.id, contactId)).get())?.s;

/** A world: the pipeline against a fresh fake Twilio account whose default sender is `from`. */
async function world() {
  const p = await pipeline({ clock: () => NOW });
  const from = p.deps.sms.sender;
  // Other files' due campaign steps may ride along through this account: each test looks at its own recipients.
  const froms = async (to?: string) => (await p.twilio.calls()).filter((c) => !to || c.to === to).map((c) => c.from);
  /** A one-step campaign to these contacts, started, its enrolment run, its send jobs consumed. */
  async function campaignStep(contactIds: number[], actorId: number) {
    const actor = { userId: actorId, role: "superuser" as const, ipAddress: null };
    const c = await createCampaign(db(), { name: uniqueTag("Numbers ") }, actor, NOW);
    await addCampaignStep(db(), c.id, checkStep(stepSchema.parse({ name: "Hi", content: "Hi {{firstName}}" })), NOW);
    await addCampaignContacts(db(), c.id, contactIds, NOW);
    await startCampaign(db(), p.queue, c.id, actor, NOW);
    await runQueue();
    // The cron's part: due steps become messages, due messages go to the queue.
    await dispatchDueSteps(db(), p.queue, NOW);
    await runQueue();
    const pending = await db().all<{ id: number }>(
      sql`SELECT id FROM messages WHERE campaign_id = ${c.id} AND status = 'pending'`,
    );
    await enqueueDueMessages(
      db(),
      p.queue,
      NOW,
      pending.map((m) => m.id),
    );
    await runQueue();
    return c.id;
  }
  /** What the queue holds, as the consumer runs it: enrolment jobs, then send batches. */
  async function runQueue() {
    for (let i = 0; i < 5; i++) {
      const jobs = p.queue.sent.splice(0) as (SendJob | EnrollCampaignJob)[];
      for (const j of jobs)
        if (j.type === "enroll-campaign") await runEnrollmentJob(j, { db: db(), queue: p.queue, now: NOW });
      const sends = jobs.filter((j): j is SendJob => j.type === "send");
      if (sends.length) await sendMessages(sends, p.deps);
    }
  }
  async function manualSend(contactId: number, actorId: number, message: string) {
    await sendIndividual(
      { db: db(), queue: p.queue, now: NOW, hooks: appHooks },
      { contactId, type: "sms", message, subject: null },
      { userId: actorId, role: "superuser" as const, ipAddress: null },
    );
    await sendMessages(p.queue.takeSendJobs(), p.deps);
  }
  return { ...p, from, froms, campaignStep, manualSend };
}

describe("which number an SMS goes from (decision 045)", () => {
  it("a contact keeps the number it was first texted from: a campaign step from its owner's number, then a manual send after a hand-off still from it", async () => {
    const w = await world();
    const a = await rep();
    const b = await rep();
    const contact = await contactOwnedBy(a.id);

    await w.campaignStep([contact.id], a.id);
    expect(await w.froms(contact.phone)).toEqual([a.number]);
    expect(await stickyOf(contact.id)).toBe(a.number);

    // Handed to rep B, who texts by hand: the homeowner still hears from the number they know.
    await setContactOwner(
      db(),
      { contactIds: [contact.id], ownerUserId: b.id },
      { userId: b.id, role: "superuser", ipAddress: null },
      NOW,
    );
    await w.manualSend(contact.id, b.id, "Hi, B here");
    expect(await w.froms(contact.phone)).toEqual([a.number, a.number]);
    const rows = await db().all<{ from_address: string; status: string }>(
      sql`SELECT from_address, status FROM messages WHERE contact_id = ${contact.id} AND direction = 'outbound' ORDER BY id`,
    );
    expect(rows).toEqual([
      { from_address: a.number, status: "sent" },
      { from_address: a.number, status: "sent" },
    ]);
  });

  it("a contact with no sticky sender goes from its owner's number; a sticky number no rep has any more falls back to the owner's", async () => {
    const w = await world();
    const owner = await rep();
    const fresh = await contactOwnedBy(owner.id);
    const orphaned = await contactOwnedBy(owner.id);
    const released = uniquePhone();
    await db().update(contacts).set({ smsSender: released }).where(eq(contacts.id, orphaned.id));

    await w.manualSend(fresh.id, owner.id, "First text");
    await w.manualSend(orphaned.id, owner.id, "Second text");
    expect(await w.froms()).toEqual([owner.number, owner.number]);
    expect(await stickyOf(fresh.id)).toBe(owner.number);
    // A sticky sender is written once: the released number stays recorded, unused.
    expect(await stickyOf(orphaned.id)).toBe(released);
  });

  it("with no rep numbers every SMS goes from the default, exactly as before; pacing and the daily cap count per real sender", async () => {
    const w = await world();
    const plain = await createTestUser();
    const unowned = await contactOwnedBy(null);
    const ownedNoNumber = await contactOwnedBy(plain.id);
    await w.manualSend(unowned.id, plain.id, "Hello");
    await w.manualSend(ownedNoNumber.id, plain.id, "Hello again");
    expect(await w.froms()).toEqual([w.from, w.from]);
    expect((await w.twilio.calls()).every((c) => c.messagingServiceSid === null)).toBe(true);

    // One batch of two messages from two numbers: each number's own pacing row counts its own send.
    const r = await rep();
    const repContact = await contactOwnedBy(r.id);
    const other = await contactOwnedBy(null);
    for (const [c, text] of [
      [repContact, "From the rep"],
      [other, "From the default"],
    ] as const)
      await sendIndividual(
        { db: db(), queue: w.queue, now: NOW, hooks: appHooks },
        { contactId: c.id, type: "sms", message: text, subject: null },
        { userId: plain.id, role: "superuser" as const, ipAddress: null },
      );
    await sendMessages(w.queue.takeSendJobs(), w.deps);
    expect((await w.froms()).slice(2).sort()).toEqual([r.number, w.from].sort());
    const pacing = await db()
      .select({ sender: senderPacing.sender, dayCount: senderPacing.dayCount })
      .from(senderPacing)
      .where(sql`${senderPacing.sender} IN (${r.number}, ${w.from})`)
      .orderBy(senderPacing.sender);
    expect(Object.fromEntries(pacing.map((p) => [p.sender, p.dayCount]))).toEqual({ [r.number!]: 1, [w.from]: 3 });
  });

  it("a Messaging Service SID as a rep's sender goes as MessagingServiceSid", async () => {
    const w = await world();
    const mg = "MG" + crypto.randomUUID().replace(/-/g, "");
    const r = await rep(mg);
    const c = await contactOwnedBy(r.id);
    await w.manualSend(c.id, r.id, "Via the service");
    const [sent] = await w.twilio.calls();
    expect(sent).toMatchObject({ from: null, messagingServiceSid: mg, httpStatus: 201 });
  });
});

describe("replies to a rep's number land in that rep's queue (decision 045)", () => {
  async function reply(from: string, to: string) {
    const sid = "SM" + crypto.randomUUID().replace(/-/g, "");
    await receiveInboundSms(db(), recordingQueue(), { from, to, body: "Yes, interested", sid }, NOW);
    const row = await db().get<{ id: number }>(sql`SELECT id FROM messages WHERE twilio_sid = ${sid}`);
    await runInboundJob(db(), [row!.id], NOW);
  }
  const ownerOf = async (id: number) =>
    (await db().select({ o: contacts.ownerUserId }).from(contacts).where(eq(contacts.id, id)).get())?.o;

  it("an unowned contact's reply to rep B's number makes B the owner (before round-robin) and keeps B's number", async () => {
    const a = await rep();
    const b = await rep();
    // Round-robin would pick A next: the cursor sits just before A.
    await db().run(sql`UPDATE assignment_cursor SET last_user_id = ${a.id - 1}`);
    const contact = await contactOwnedBy(null);
    await reply(contact.phone, b.number!);
    expect(await ownerOf(contact.id)).toBe(b.id);
    expect(await stickyOf(contact.id)).toBe(b.number);

    // An owned contact keeps its owner when it texts another rep's number.
    await reply(contact.phone, a.number!);
    expect(await ownerOf(contact.id)).toBe(b.id);
  });

  it("a reply to the shared number is left to round-robin; a number that is no contact stays as it was", async () => {
    const b = await rep();
    const contact = await contactOwnedBy(null);
    await db().update(users).set({ availableForLeads: false }).where(eq(users.id, b.id));
    await reply(contact.phone, "+15005550006");
    expect(await ownerOf(contact.id)).not.toBe(b.id);
    expect(await stickyOf(contact.id)).toBeNull();

    const stranger = uniquePhone();
    await reply(stranger, b.number!);
    expect(await db().get(sql`SELECT id FROM contacts WHERE phone = ${stranger}`)).toBeFalsy();
  });
});

describe("setting a rep's sending number (decision 045)", () => {
  it("PUT /api/users/:id: validated, bounded, unique; without Twilio any well-formed number; null clears", async () => {
    const admin = await createTestUser({ role: "superuser" });
    const cookie = await loginAs(admin);
    const target = await createTestUser();
    const other = await createTestUser({ firstName: "Dana", lastName: "Holder" });
    const put = (id: number, json: unknown) => call(`/api/users/${id}`, { method: "PUT", cookie, json });

    for (const bad of ["555-0100", "+0123", "MG123", "x".repeat(41), 15551234567]) {
      const res = await put(target.id, { smsSender: bad });
      expect(res.status, String(bad)).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/E\.164|Messaging Service|smsSender/);
    }
    const number = uniquePhone();
    const ok = await put(target.id, { smsSender: `(${number.slice(2, 5)}) ${number.slice(5, 8)}-${number.slice(8)}` });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { user: { smsSender: string } }).user.smsSender).toBe(number);

    const taken = await put(other.id, { smsSender: number });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { message: string }).message).toContain(`already`);

    const cleared = await put(target.id, { smsSender: null });
    expect(((await cleared.json()) as { user: { smsSender: null } }).user.smsSender).toBeNull();
    expect((await put(other.id, { smsSender: number })).status).toBe(200);
  });

  it("with Twilio configured, a number must be one of the account's (IncomingPhoneNumbers), a service SID one of its services", async () => {
    const { twilio } = await pipeline();
    const owned = uniquePhone();
    await twilio.addIncomingNumbers([owned]);
    const sms = createTwilioSms(twilio.config());
    const u = await createTestUser();
    const actor = { userId: u.id, ipAddress: null };

    const stranger = uniquePhone();
    const refused = await setSendingNumber(db(), sms, u.id, stranger, actor, NOW).catch((e) => e);
    expect(isAppError(refused) && refused.code).toBe("validation");
    expect(refused.message).toBe(`${stranger} is not a phone number in this Twilio account`);

    await setSendingNumber(db(), sms, u.id, owned, actor, NOW);
    expect((await db().select().from(users).where(eq(users.id, u.id)).get())?.smsSender).toBe(owned);

    // A Messaging Service SID must be one of the account's services (GET /v1/Services/:sid).
    const mg = () => "MG" + crypto.randomUUID().replace(/-/g, "");
    const service = mg();
    await twilio.addIncomingNumbers([service]);
    const unknown = mg();
    const noService = await setSendingNumber(db(), sms, u.id, unknown, actor, NOW).catch((e) => e);
    expect(isAppError(noService) && noService.message).toBe(
      `${unknown} is not a Messaging Service in this Twilio account`,
    );
    await setSendingNumber(db(), sms, u.id, service, actor, NOW);
    expect((await db().select().from(users).where(eq(users.id, u.id)).get())?.smsSender).toBe(service);
    await setSendingNumber(db(), sms, u.id, owned, actor, NOW);

    // Twilio unreachable or refusing: a clear 503, nothing saved.
    await twilio.failNext(1, 401);
    const down = await setSendingNumber(db(), sms, u.id, uniquePhone(), actor, NOW).catch((e) => e);
    expect(isAppError(down) && down.code).toBe("unavailable");
    expect((await db().select().from(users).where(eq(users.id, u.id)).get())?.smsSender).toBe(owned);
  });
});
