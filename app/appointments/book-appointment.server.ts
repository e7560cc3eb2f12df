import { and, eq } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import { runBatch } from "~/db/client.server";
import type { DomainContext } from "~/db/domain-context";
import { appointments, users } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { AppError } from "~/lib/app-error";
import { personName } from "~/lib/names";
import { getContact } from "~/contacts/get-contact.server";
import { advanceStageStatement } from "~/contacts/set-contact-stage.server";
import { NO_CONTACT_EVENT_HOOKS, type ContactEventHooks } from "~/contacts/contact-event-hooks";
import type { ContactViewer } from "~/contacts/contact-scope.server";
import { createOutboundMessages, type OutboundInput } from "~/messaging/create-outbound-messages.server";
import { appointmentInvite } from "./appointment-ics";
import { appointmentEmail, confirmationText, REMINDER_LEADS } from "./appointment-texts";

export type BookAppointmentInput = {
  contactId: number;
  startsAt: Date;
  timeZone: string;
  closerUserId: number | null;
  location: string | null;
  meetingLink: string | null;
  note: string | null;
  durationMinutes?: number;
};

/** Earliest and latest a booking may start, from now. */
export const BOOK_MIN_LEAD_MS = 5 * 60_000;
export const BOOK_MAX_AHEAD_DAYS = 366;

/** Stages an appointment moves a contact out of (forward only: a sat or sold contact stays where it is). */
const BEFORE_APPOINTMENT = ["new", "contacted"];

/** The first reminder still ahead of `now`: the day-before one, else the one 2 h before, else none. */
export function firstReminderAt(startsAt: Date, now: Date): Date | null {
  for (const lead of [REMINDER_LEADS.day, REMINDER_LEADS.soon]) {
    const at = startsAt.getTime() - lead;
    if (at > now.getTime()) return new Date(at);
  }
  return null;
}

/**
 * Books an appointment for a contact the person sees (decision 055): the row, the contact moved to "Appointment set"
 * (from New or Contacted only), an activity entry — one batch — then the confirmation text (and, to a homeowner with
 * an email address, the confirmation email with the .ics invite, decision 064) through the one send
 * pipeline (kind `appointment`: opt-outs and quiet hours apply as to any text; from the closer's number when they have
 * one). Reminders follow from the cron (sendAppointmentReminders).
 */
export async function bookAppointment(
  { db, queue, now }: DomainContext,
  input: BookAppointmentInput,
  actor: Actor & ContactViewer,
  hooks: ContactEventHooks = NO_CONTACT_EVENT_HOOKS,
) {
  const contact = await getContact(db, input.contactId, actor);
  const t = input.startsAt.getTime();
  if (!Number.isFinite(t) || t < now.getTime() + BOOK_MIN_LEAD_MS)
    throw new AppError("validation", "Choose a time at least 5 minutes from now", { field: "startsAt" });
  if (t > now.getTime() + BOOK_MAX_AHEAD_DAYS * 86_400_000)
    throw new AppError("validation", "Choose a time within the next year", { field: "startsAt" });
  const closer =
    input.closerUserId === null
      ? null
      : ((
          await db
            .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
            .from(users)
            .where(and(eq(users.id, input.closerUserId), eq(users.isActive, true)))
        )[0] ?? null);
  if (input.closerUserId !== null && !closer)
    throw new AppError("validation", "Choose an active user as the closer", { field: "closerUserId" });

  const [inserted, moved] = (await runBatch(db, [
    db
      .insert(appointments)
      .values({
        contactId: contact.id,
        closerUserId: closer?.id ?? null,
        startsAt: input.startsAt,
        durationMinutes: input.durationMinutes ?? 60,
        timeZone: input.timeZone,
        location: input.location,
        meetingLink: input.meetingLink,
        note: input.note,
        nextReminderAt: firstReminderAt(input.startsAt, now),
        createdBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: appointments.id }),
    advanceStageStatement(db, { contactId: contact.id, to: "appointment_set", from: BEFORE_APPOINTMENT }, now),
    logActivity(db, "book_appointment", {
      ...actor,
      now,
      details: { contactId: contact.id, startsAt: input.startsAt.toISOString(), closerUserId: closer?.id ?? null },
    }),
  ] as const)) as [{ id: number }[], { id: number }[]];
  const id = inserted[0].id;
  if (moved.length) await hooks.stageChanged({ db, now }, [contact.id], "appointment_set");

  const forText = {
    startsAt: input.startsAt,
    timeZone: input.timeZone,
    location: input.location,
    meetingLink: input.meetingLink,
    firstName: contact.firstName,
    closerName: closer ? personName(closer) : null,
  };
  const createdBy = closer?.id ?? actor.userId;
  const outbound: OutboundInput[] = [];
  if (contact.phone) {
    outbound.push({
      channel: "sms",
      kind: "appointment",
      content: confirmationText(forText),
      idempotencyKey: `appt:${id}:booked`,
      contactId: contact.id,
      phone: contact.phone,
      createdBy,
    });
  }
  // By email too, with the invite for the homeowner's calendar (issue 28, decision 064), unless they unsubscribed.
  if (contact.email && !contact.emailUnsubscribedAt) {
    const mail = appointmentEmail(forText, "booked");
    outbound.push({
      channel: "email",
      kind: "appointment",
      subject: mail.subject,
      content: mail.text,
      attachments: [
        appointmentInvite({ ...forText, id, durationMinutes: input.durationMinutes ?? 60, status: "scheduled" }, now),
      ],
      idempotencyKey: `appt:${id}:booked:email`,
      contactId: contact.id,
      email: contact.email,
      createdBy,
    });
  }
  const created = outbound.length ? await createOutboundMessages(db, queue, outbound, now) : [];
  // The text's id when there is one (the email's key follows it, so the text comes first).
  const confirmation = contact.phone ? (created[0] ?? null) : null;
  return { id, confirmationMessageId: confirmation };
}
