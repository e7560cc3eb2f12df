import { and, asc, eq, isNotNull, lte } from "drizzle-orm";
import { runBatch } from "~/db/client.server";
import type { DomainContext } from "~/db/domain-context";
import { appointments, contacts } from "~/db/schema";
import { createOutboundMessages, type OutboundInput } from "~/messaging/create-outbound-messages.server";
import { appointmentTextColumns, closer, closerNameOf } from "./appointment-columns.server";
import { appointmentInvite } from "./appointment-ics";
import { appointmentEmail, REMINDER_LEADS, reminderKindAt, reminderText, UPCOMING } from "./appointment-texts";

/** Appointments handled per tick at most (the rest wait a minute; a busy team books far fewer a minute). */
export const REMINDER_BATCH = 200;

/**
 * Cron task (decision 055): every appointment whose next reminder is due gets it — the day-before one while more than
 * 3 h remain, else the one shortly before — through the one send pipeline (kind `appointment`: a reminder that falls
 * in the homeowner's quiet hours waits for the morning, never dropped). Reads only due rows
 * (appointments_reminder_due_idx). A homeowner with an email address (not unsubscribed) gets it by email too, with the
 * appointment's .ics invite attached (issue 28). Each reminder's key is `appt:{id}:{day|soon}` (`…:email` for the
 * email), and the row moves on
 * compare-and-set on what was read, so an overlapping tick sends nothing twice. An appointment no longer upcoming,
 * or already started, just leaves the scan.
 */
export async function sendAppointmentReminders({ db, queue, now }: DomainContext) {
  const due = await db
    .select({
      id: appointments.id,
      contactId: appointments.contactId,
      ...appointmentTextColumns,
      status: appointments.status,
      nextReminderAt: appointments.nextReminderAt,
      remindersSent: appointments.remindersSent,
      createdBy: appointments.createdBy,
      durationMinutes: appointments.durationMinutes,
      firstName: contacts.firstName,
      phone: contacts.phone,
      email: contacts.email,
      emailUnsubscribedAt: contacts.emailUnsubscribedAt,
    })
    .from(appointments)
    .innerJoin(contacts, eq(contacts.id, appointments.contactId))
    .leftJoin(closer, eq(closer.id, appointments.closerUserId))
    .where(and(isNotNull(appointments.nextReminderAt), lte(appointments.nextReminderAt, now)))
    .orderBy(asc(appointments.nextReminderAt))
    .limit(REMINDER_BATCH);
  if (!due.length) return { due: 0, sent: 0 };

  const inputs: OutboundInput[] = [];
  const moves: { id: number; next: Date | null; sent: number; read: Date }[] = [];
  for (const a of due) {
    const upcoming = (UPCOMING as string[]).includes(a.status) && a.startsAt.getTime() > now.getTime();
    const emailTo = a.email && !a.emailUnsubscribedAt ? a.email : null;
    if (!upcoming || (!a.phone && !emailTo)) {
      moves.push({ id: a.id, next: null, sent: a.remindersSent, read: a.nextReminderAt! });
      continue;
    }
    const kind = reminderKindAt(a.startsAt, now);
    const forText = {
      startsAt: a.startsAt,
      timeZone: a.timeZone,
      location: a.location,
      meetingLink: a.meetingLink,
      firstName: a.firstName,
      closerName: closerNameOf(a),
    };
    if (a.phone) {
      inputs.push({
        channel: "sms",
        kind: "appointment",
        content: reminderText(forText, kind),
        idempotencyKey: `appt:${a.id}:${kind}`,
        contactId: a.contactId,
        phone: a.phone,
        createdBy: a.closerId ?? a.createdBy,
      });
    }
    // A homeowner with an email address gets the reminder there too, with the invite for their calendar (issue 28).
    if (emailTo) {
      const mail = appointmentEmail(forText, kind);
      inputs.push({
        channel: "email",
        kind: "appointment",
        subject: mail.subject,
        content: mail.text,
        attachments: [
          appointmentInvite({ ...forText, id: a.id, durationMinutes: a.durationMinutes, status: a.status }, now),
        ],
        idempotencyKey: `appt:${a.id}:${kind}:email`,
        contactId: a.contactId,
        email: emailTo,
        createdBy: a.closerId ?? a.createdBy,
      });
    }
    const soonAt = a.startsAt.getTime() - REMINDER_LEADS.soon;
    moves.push({
      id: a.id,
      next: kind === "day" && soonAt > now.getTime() ? new Date(soonAt) : null,
      sent: a.remindersSent + 1,
      read: a.nextReminderAt!,
    });
  }
  // Messages first: a crash before the moves leaves the rows due, and the next tick's insert is a no-op on the keys.
  const created = inputs.length ? await createOutboundMessages(db, queue, inputs, now) : [];
  await runBatch(
    db,
    moves.map((m) =>
      db
        .update(appointments)
        .set({ nextReminderAt: m.next, remindersSent: m.sent, updatedAt: now })
        .where(and(eq(appointments.id, m.id), eq(appointments.nextReminderAt, m.read))),
    ),
  );
  return { due: due.length, sent: created.length };
}
