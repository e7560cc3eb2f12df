import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { beforeAll, afterAll, describe, expect, it } from "vitest";
import { appointments, contacts, messages } from "~/db/schema";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { processInboundMessages } from "~/messaging/receive-inbound.server";
import type { InboundProcessor } from "~/messaging/pipeline-hooks";
import { createTestUser, db } from "../../tests/factories";
import { createTestContact } from "../../tests/contact-factory";
import { measureD1, recordD1 } from "../../tests/d1-recorder";
import { appHooks, asWritten, pipeline, recordingQueue, runInboundJob } from "../../tests/messaging-harness";
import { sendBroadcast } from "~/messaging/send-broadcast.server";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { answerAppointmentReplies } from "./answer-appointment-replies.server";
import { appointmentVariables, confirmationText, parseAppointmentReply, reminderText } from "./appointment-texts";
import { bookAppointment, type BookAppointmentInput } from "./book-appointment.server";
import { sendAppointmentReminders } from "./send-appointment-reminders.server";
import { setAppointmentStatus } from "./set-appointment-status.server";
import { getShowRate } from "./get-show-rate.server";

const HOUR = 3600_000;

/** A booking's input: the contact and the time, in New York, with nothing else unless given. */
const slot = (contactId: number, startsAt: Date, more: Partial<BookAppointmentInput> = {}): BookAppointmentInput => ({
  contactId,
  startsAt,
  timeZone: "America/New_York",
  closerUserId: null,
  location: null,
  meetingLink: null,
  note: null,
  ...more,
});
let unrecord: () => void;
beforeAll(() => void (unrecord = recordD1(env.DB)));
afterAll(() => unrecord());

async function setup(opts: { owner?: number | null } = {}) {
  const rep = await createTestUser({ firstName: "Dana", lastName: "Reyes" });
  const contact = await createTestContact(rep.id, { firstName: "Rosa", state: "NY" });
  await db()
    .update(contacts)
    .set({ ownerUserId: opts.owner === undefined ? rep.id : opts.owner })
    .where(eq(contacts.id, contact.id));
  const actor = { userId: rep.id, role: rep.role, ipAddress: null };
  return { rep, contact, actor, queue: recordingQueue() };
}

const outbound = (contactId: number) =>
  db()
    .select({ content: messages.content, key: messages.idempotencyKey, kind: messages.kind, by: messages.createdBy })
    .from(messages)
    .where(sql`${messages.contactId} = ${contactId} AND ${messages.direction} = 'outbound'`)
    .orderBy(messages.id);

describe("appointment texts (decision 055)", () => {
  it("quote the homeowner's local time on either side of a DST change, whatever zone books it", () => {
    const zone = "America/New_York";
    // DST began 2026-03-08: 10:00 local is 14:00Z after it, 15:00Z before.
    expect(
      appointmentVariables({ startsAt: new Date("2026-03-09T14:00:00Z"), timeZone: zone, meetingLink: null }),
    ).toMatchObject({ appointmentDate: "Monday, March 9", appointmentTime: "10:00 AM EDT" });
    expect(
      appointmentVariables({ startsAt: new Date("2026-03-06T15:00:00Z"), timeZone: zone, meetingLink: null }),
    ).toMatchObject({ appointmentDate: "Friday, March 6", appointmentTime: "10:00 AM EST" });
    // Arizona keeps no DST: the same instant reads 7:00 AM MST there.
    expect(
      appointmentVariables({
        startsAt: new Date("2026-03-09T14:00:00Z"),
        timeZone: "America/Phoenix",
        meetingLink: null,
      }).appointmentTime,
    ).toBe("7:00 AM MST");
  });

  it("say who, when and where, with the reply options; the 2-hour one names only the time", () => {
    const a = {
      startsAt: new Date("2026-11-30T19:30:00Z"),
      timeZone: "America/Chicago",
      location: null,
      meetingLink: "https://meet.example/abc",
      firstName: "Rosa",
      closerName: "Dana Reyes",
    };
    expect(confirmationText(a)).toBe(
      "Hi Rosa, your solar appointment with Dana Reyes is booked for Monday, November 30 at 1:30 PM CST. Join: https://meet.example/abc Reply C to confirm, R to reschedule or N to cancel.",
    );
    expect(reminderText({ ...a, meetingLink: null, location: "At the home" }, "soon")).toBe(
      "Hi Rosa, see you soon: your solar appointment with Dana Reyes is at 1:30 PM CST today. Where: At the home.",
    );
  });

  it.each([
    ["C", "confirm"],
    [" y! ", "confirm"],
    ["Confirmed.", "confirm"],
    ["n", "cancel"],
    ["R", "reschedule"],
    ["YES", null], // START: the pipeline's
    ["No thanks, I rent", null],
    ["c u there", null],
  ])("reads %j as %s", (body, want) => expect(parseAppointmentReply(body)).toBe(want));
});

describe("booking, reminders and replies (decision 055)", () => {
  it("books: the row, the contact to Appointment set, a confirmation from the closer in the contact's time", async () => {
    const { contact, actor, queue } = await setup();
    const closer = await createTestUser({ firstName: "Sam", lastName: "Ortiz" });
    const now = new Date("2026-11-27T15:00:00Z");
    const startsAt = new Date("2026-12-01T15:00:00Z"); // 10:00 AM EST
    const { id, confirmationMessageId } = await bookAppointment(
      { db: db(), queue, now },
      slot(contact.id, startsAt, { closerUserId: closer.id, location: "At the home" }),
      actor,
    );
    expect(confirmationMessageId).toBeTypeOf("number");
    const [row] = await db().select().from(appointments).where(eq(appointments.id, id));
    expect(row).toMatchObject({ status: "scheduled", closerUserId: closer.id, remindersSent: 0 });
    expect(row.nextReminderAt?.toISOString()).toBe("2026-11-30T15:00:00.000Z");
    const [c] = await db().select({ stage: contacts.stage }).from(contacts).where(eq(contacts.id, contact.id));
    expect(c.stage).toBe("appointment_set");
    expect(await outbound(contact.id)).toEqual([
      {
        content:
          "Hi Rosa, your solar appointment with Sam Ortiz is booked for Tuesday, December 1 at 10:00 AM EST. Where: At the home. Reply C to confirm, R to reschedule or N to cancel.",
        key: `appt:${id}:booked`,
        kind: "appointment",
        by: closer.id,
      },
    ]);
    expect(queue.takeSendJobs()).toHaveLength(1);
  });

  it("refuses a time in the past, an inactive closer, and another rep's contact", async () => {
    const { contact, actor, queue } = await setup();
    const now = new Date();
    const base = slot(contact.id, new Date(now.getTime() + 2 * HOUR));
    const ctx = { db: db(), queue, now };
    await expect(
      bookAppointment(ctx, { ...base, startsAt: new Date(now.getTime() - HOUR) }, actor),
    ).rejects.toMatchObject({ code: "validation", field: "startsAt" });
    const gone = await createTestUser({ isActive: false });
    await expect(bookAppointment(ctx, { ...base, closerUserId: gone.id }, actor)).rejects.toMatchObject({
      code: "validation",
      field: "closerUserId",
    });
    const other = await createTestUser();
    await expect(bookAppointment(ctx, base, { userId: other.id, role: "user", ipAddress: null })).rejects.toMatchObject(
      { code: "not_found" },
    );
    expect(await db().select().from(appointments).where(eq(appointments.contactId, contact.id))).toEqual([]);
  });

  it("the cron sends the day-before reminder, then the 2-hour one, once each, reading only due rows", async () => {
    const { contact, actor, queue } = await setup();
    const booked = new Date("2026-11-20T15:00:00Z");
    const startsAt = new Date("2026-11-25T19:00:00Z"); // 2:00 PM EST
    const { id } = await bookAppointment({ db: db(), queue, now: booked }, slot(contact.id, startsAt), actor);
    // 300 other appointments far ahead: not due, never read.
    const later = await createTestContact(actor.userId);
    const far = Array.from({ length: 300 }, (_, i) => ({
      contactId: later.id,
      startsAt: new Date(startsAt.getTime() + (30 + i) * 86_400_000),
      timeZone: "UTC",
      nextReminderAt: new Date(startsAt.getTime() + (29 + i) * 86_400_000),
      createdAt: booked,
      updatedAt: booked,
    }));
    // D1 binds at most 100 values a statement: 10 rows of 9.
    for (let i = 0; i < far.length; i += 10)
      await db()
        .insert(appointments)
        .values(far.slice(i, i + 10));
    await db().run(sql`ANALYZE`);

    const tick = (at: string) => sendAppointmentReminders({ db: db(), queue, now: new Date(at) });
    expect(await tick("2026-11-24T18:59:00Z")).toEqual({ due: 0, sent: 0 });
    const day = await measureD1(() => Promise.all([tick("2026-11-24T19:00:00Z"), tick("2026-11-24T19:00:30Z")]));
    expect(day.read).toBeLessThan(40); // the due row, its contact, the pipeline's insert — not the 300
    expect(await tick("2026-11-25T16:59:00Z")).toEqual({ due: 0, sent: 0 });
    await tick("2026-11-25T17:00:00Z");
    expect(await tick("2026-11-25T17:05:00Z")).toEqual({ due: 0, sent: 0 });
    const texts = (await outbound(contact.id)).map((m) => m.key);
    expect(texts).toEqual([`appt:${id}:booked`, `appt:${id}:day`, `appt:${id}:soon`]);
    expect((await outbound(contact.id))[2].content).toContain("is at 2:00 PM EST today");
    const [row] = await db().select().from(appointments).where(eq(appointments.id, id));
    expect(row).toMatchObject({ remindersSent: 2, nextReminderAt: null });
  });

  it("a homeowner with an email gets the confirmation and each reminder there too, with the appointment's .ics, in SendGrid's wire format", async () => {
    const { rep, actor, queue } = await setup();
    const withEmail = await createTestContact(rep.id, {
      firstName: "Rosa",
      email: `rosa.${crypto.randomUUID()}@example.com`,
    });
    const gone = await createTestContact(rep.id, { firstName: "Ned", email: `ned.${crypto.randomUUID()}@example.com` });
    await db()
      .update(contacts)
      .set({ emailUnsubscribedAt: new Date("2026-11-01T00:00:00Z") })
      .where(eq(contacts.id, gone.id));
    const booked = new Date("2026-11-20T15:00:00Z");
    const startsAt = new Date("2026-11-25T19:00:00Z"); // 2:00 PM EST
    const more = {
      closerUserId: rep.id,
      location: "12 Elm St, Albany; side door",
      meetingLink: null,
      durationMinutes: 90,
    };
    const { id } = await bookAppointment({ db: db(), queue, now: booked }, slot(withEmail.id, startsAt, more), actor);
    await bookAppointment({ db: db(), queue, now: booked }, slot(gone.id, startsAt, more), actor);
    const at = new Date("2026-11-24T19:00:00Z");
    await sendAppointmentReminders({ db: db(), queue, now: at });
    expect((await outbound(withEmail.id)).map((m) => m.key)).toEqual([
      `appt:${id}:booked`,
      `appt:${id}:booked:email`,
      `appt:${id}:day`,
      `appt:${id}:day:email`,
    ]);
    // Unsubscribed from email: the text only.
    expect((await outbound(gone.id)).map((m) => m.key).filter((k) => k.endsWith(":email"))).toEqual([]);

    const { deps, sendgrid } = await pipeline({ clock: () => at });
    await sendMessages(queue.takeSendJobs(), deps);
    const calls = (await sendgrid.calls()).filter((c) => c.to.includes(withEmail.email!));
    expect(calls.map((c) => [c.httpStatus, c.subject])).toEqual([
      [202, "Booked: your solar appointment on Wednesday, November 25 at 2:00 PM EST"],
      [202, "Reminder: your solar appointment on Wednesday, November 25 at 2:00 PM EST"],
    ]);
    // The confirmation's invite and the reminder's are one calendar entry (one UID).
    expect(calls[0].attachments[0].content).toContain(`UID:appointment-${id}@helio`);
    calls.shift();
    expect(calls[0].text).toContain("Where: 12 Elm St, Albany; side door");
    expect(calls[0].attachments).toHaveLength(1);
    const [ics] = calls[0].attachments;
    expect(ics).toMatchObject({ filename: "solar-appointment.ics", disposition: "attachment" });
    expect(ics.type).toMatch(/^text\/calendar/);
    const lines = ics.content!.split("\r\n");
    expect(lines).toEqual(
      expect.arrayContaining([
        "BEGIN:VCALENDAR",
        `UID:appointment-${id}@helio`,
        "DTSTART:20261125T190000Z",
        "DTEND:20261125T203000Z",
        "SUMMARY:Solar appointment with Dana Reyes",
        "LOCATION:12 Elm St\\, Albany\\; side door",
        "STATUS:TENTATIVE",
        "END:VCALENDAR",
      ]),
    );
    const [row] = await db()
      .select({ status: messages.status, attachments: messages.attachments })
      .from(messages)
      .where(eq(messages.idempotencyKey, `appt:${id}:day:email`));
    expect(row.status).toBe("sent");
    expect(row.attachments).toEqual([expect.objectContaining({ filename: "solar-appointment.ics" })]);
  });

  it("a cancelled appointment gets no reminder", async () => {
    const { contact, actor, queue } = await setup();
    const now = new Date("2026-11-20T15:00:00Z");
    const { id } = await bookAppointment(
      { db: db(), queue, now },
      slot(contact.id, new Date("2026-11-23T15:00:00Z"), { timeZone: "UTC" }),
      actor,
    );
    await setAppointmentStatus(db(), { contactId: contact.id, appointmentId: id, status: "cancelled" }, actor, now);
    expect(await sendAppointmentReminders({ db: db(), queue, now: new Date("2026-11-22T15:00:00Z") })).toEqual({
      due: 0,
      sent: 0,
    });
  });

  it("a reply C confirms, N cancels, R asks to reschedule — each answered once, and the processors after do not see it", async () => {
    const { contact, actor } = await setup();
    const now = new Date("2026-11-20T15:00:00Z");
    const queue = recordingQueue();
    const book = (days: number) =>
      bookAppointment({ db: db(), queue, now }, slot(contact.id, new Date(now.getTime() + days * 86_400_000)), actor);
    const first = await book(2);
    const reply = async (body: string) => {
      const r = await receiveInboundSms(
        db(),
        queue,
        { sid: "SM" + crypto.randomUUID().replace(/-/g, ""), from: contact.phone!, to: "+15005550006", body },
        now,
      );
      return r.messageId!;
    };
    const seen: number[][] = [];
    const after: InboundProcessor = {
      name: "test: what reaches the next processor",
      process: async (_c, ids) => void seen.push(ids),
    };
    const c = await reply("C");
    const hello = await reply("Is the roof survey free?");
    const ctx = { db: db(), queue, now };
    await processInboundMessages(ctx, [c, hello], [...appHooks.inbound, after]);
    expect(seen).toEqual([[hello]]);
    await processInboundMessages(ctx, [c], [...appHooks.inbound, after]); // redelivered: nothing again
    const status = async (id: number) =>
      (await db().select({ s: appointments.status }).from(appointments).where(eq(appointments.id, id)))[0].s;
    expect(await status(first.id)).toBe("confirmed");

    const n = await reply("N");
    await runInboundJob(db(), [n], now, undefined, queue);
    await runInboundJob(db(), [n], now, undefined, queue); // a second pass must not cancel the next one too
    expect(await status(first.id)).toBe("cancelled");
    const second = await book(5);
    const r = await reply("r");
    expect(await answerAppointmentReplies(ctx, [r])).toEqual({ answered: [r] });
    expect(await status(second.id)).toBe("reschedule_requested");

    const answers = (await outbound(contact.id)).filter((m) => m.key.startsWith("appt-reply:")).map((m) => m.content);
    expect(answers).toEqual([
      "Thanks, Rosa! You're confirmed for Sunday, November 22 at 10:00 AM EST.",
      "Your appointment on Sunday, November 22 at 10:00 AM EST is cancelled. Reply R any time if you'd like a new one.",
      "No problem: we will text you to find a new time.",
    ]);
    // With nothing upcoming, a bare "C" is an ordinary reply.
    const late = await reply("C");
    expect(await answerAppointmentReplies(ctx, [late])).toEqual({ answered: [] });
  });

  it("marking one sat moves the contact to Sat; someone else's appointment id is refused", async () => {
    const { contact, actor, queue } = await setup();
    const now = new Date();
    const { id } = await bookAppointment(
      { db: db(), queue, now },
      slot(contact.id, new Date(now.getTime() + 3 * HOUR), { timeZone: "UTC" }),
      actor,
    );
    await setAppointmentStatus(db(), { contactId: contact.id, appointmentId: id, status: "completed" }, actor, now);
    const [c] = await db().select({ stage: contacts.stage }).from(contacts).where(eq(contacts.id, contact.id));
    expect(c.stage).toBe("sat");
    const other = await setup();
    await expect(
      setAppointmentStatus(
        db(),
        { contactId: other.contact.id, appointmentId: id, status: "cancelled" },
        other.actor,
        now,
      ),
    ).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("the Appointment variables come from the next booked appointment (issue 28 item 2)", () => {
  it("a broadcast renders {{appointmentDateTime}} and {{meetingLink}} in the contact's zone; the check refuses a contact without one", async () => {
    const now = new Date("2026-11-18T18:30:00Z");
    const { contact, actor, queue, rep } = await setup();
    const other = await createTestContact(rep.id, { firstName: "Ana", state: "NY" });
    const { deps, twilio } = await pipeline({ clock: () => now });
    // A past one and a cancelled one are not "next"; the booked one is, with its link over the typed one.
    const book = (startsAt: string, meetingLink: string | null) =>
      bookAppointment(
        { db: db(), queue, now: new Date("2026-11-01T15:00:00Z") },
        slot(contact.id, new Date(startsAt), { meetingLink }),
        actor,
      );
    await book("2026-11-10T15:00:00Z", "https://meet.example.com/past");
    const cancelled = await book("2026-11-20T15:00:00Z", "https://meet.example.com/cancelled");
    await db().update(appointments).set({ status: "cancelled" }).where(eq(appointments.id, cancelled.id));
    await book("2026-11-24T19:30:00Z", "https://meet.example.com/rosa");
    await book("2026-12-02T15:00:00Z", "https://meet.example.com/later");
    await db()
      .update(contacts)
      .set({
        customFields: JSON.stringify({ meetingLink: "https://typed.example.com", appointmentDate: "2026-01-01" }),
      })
      .where(eq(contacts.id, contact.id));
    queue.takeSendJobs();

    const content = "Hi {{firstName}}, see you {{appointmentDateTime}}: {{meetingLink}}";
    const send = (contactIds: number[]) =>
      sendBroadcast({ db: db(), queue, now, hooks: appHooks }, { type: "sms", content, contactIds }, actor);
    await expect(send([contact.id, other.id])).rejects.toMatchObject({
      code: "validation",
      details: { missing: { appointmentDateTime: 1, meetingLink: 1 }, recipients: 2 },
    });
    await send([contact.id]);
    await sendMessages(queue.takeSendJobs(), deps);
    const calls = await twilio.calls();
    expect(await Promise.all(calls.map((c) => asWritten(c.body)))).toEqual([
      "Hi Rosa, see you Tuesday, November 24 at 2:30 PM EST: https://meet.example.com/rosa",
    ]);
  });
});

describe("show rate per closer (decision 058)", () => {
  it("counts the closer's appointments that started in the period by status, through the closer's index", async () => {
    const { contact, actor, queue } = await setup();
    const closer = await createTestUser();
    const now = new Date("2026-11-01T12:00:00Z");
    const book = async (days: number, status: "completed" | "no_show" | "cancelled" | null) => {
      const { id } = await bookAppointment(
        { db: db(), queue, now },
        slot(contact.id, new Date(now.getTime() + days * 86_400_000), { timeZone: "UTC", closerUserId: closer.id }),
        actor,
      );
      if (status) await setAppointmentStatus(db(), { contactId: contact.id, appointmentId: id, status }, actor, now);
    };
    await book(1, "completed");
    await book(2, "completed");
    await book(3, "no_show");
    await book(4, "cancelled");
    await book(60, "completed"); // after the period
    const period = { from: now, to: new Date(now.getTime() + 30 * 86_400_000) };
    const measured = await measureD1(() => getShowRate(db(), closer.id, period));
    expect(await getShowRate(db(), closer.id, period)).toEqual({
      byStatus: { completed: 2, no_show: 1, cancelled: 1 },
      showRate: 2 / 3,
    });
    const [q] = measured.statements;
    const detail = (
      await env.DB.prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
        .bind(...q.params)
        .all<{ detail: string }>()
    ).results.map((r) => r.detail);
    expect(detail.join(" | ")).toContain("appointments_closer_idx");
    expect(await getShowRate(db(), actor.userId, period)).toEqual({ byStatus: {}, showRate: null });
  });
});
