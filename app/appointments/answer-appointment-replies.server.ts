import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { inJson } from "~/db/bulk-update.server";
import { runBatch } from "~/db/client.server";
import type { DomainContext } from "~/db/domain-context";
import { appointments, contacts, messages } from "~/db/schema";
import { logActivity } from "~/activity/log-activity.server";
import { createOutboundMessages, type OutboundInput } from "~/messaging/create-outbound-messages.server";
import { appointmentTextColumns, closer, closerNameOf } from "./appointment-columns.server";
import { parseAppointmentReply, REPLY_STATUS, replyAnswerText, UPCOMING } from "./appointment-texts";

/** An appointment that started this long ago still takes a "C" (the homeowner answering a late reminder). */
const REPLY_GRACE_MS = 2 * 3600_000;

/**
 * Inbound processor (decision 055): a bare C/Y, N or R from a contact with an upcoming appointment confirms, cancels
 * or asks to reschedule their next one, and gets one answer through the pipeline (key `appt-reply:{messageId}`, so a
 * redelivered job answers nothing twice). Returns the replies it answered, which the later processors (auto-responders,
 * smart alerts) then do not see: a "C" needs no second answer and is not a hot lead. A reply that is not such a word,
 * or from a contact with nothing upcoming, is left to them.
 */
export async function answerAppointmentReplies({ db, queue, now }: DomainContext, messageIds: number[]) {
  if (!messageIds.length) return { answered: [] };
  const inbound = await db
    .select({ id: messages.id, contactId: messages.contactId, content: messages.content, phone: messages.phone })
    .from(messages)
    .where(and(inJson(messages.id, messageIds), sql`${messages.direction} = 'inbound'`))
    .orderBy(messages.id);
  const words = inbound
    .map((m) => ({ ...m, reply: parseAppointmentReply(m.content) }))
    .filter((m): m is typeof m & { contactId: number; reply: NonNullable<typeof m.reply> } =>
      Boolean(m.reply && m.contactId !== null),
    );
  if (!words.length) return { answered: [] };
  // A redelivered job: the replies already answered (their answer's key exists) are not acted on again — a second
  // "N" pass would otherwise cancel the appointment after the one it cancelled.
  const done = new Set(
    (
      await db
        .select({ key: messages.idempotencyKey })
        .from(messages)
        .where(
          inJson(
            messages.idempotencyKey,
            words.map((m) => `appt-reply:${m.id}`),
          ),
        )
    ).map((r) => r.key),
  );

  const answered: number[] = [];
  const inputs: OutboundInput[] = [];
  for (const m of words) {
    if (done.has(`appt-reply:${m.id}`)) {
      answered.push(m.id);
      continue;
    }
    // The contact's next appointment still to happen (appointments_contact_idx: this contact's rows from the grace on).
    const [next] = await db
      .select({
        id: appointments.id,
        ...appointmentTextColumns,
        firstName: contacts.firstName,
      })
      .from(appointments)
      .innerJoin(contacts, eq(contacts.id, appointments.contactId))
      .leftJoin(closer, eq(closer.id, appointments.closerUserId))
      .where(
        and(
          eq(appointments.contactId, m.contactId),
          gt(appointments.startsAt, new Date(now.getTime() - REPLY_GRACE_MS)),
          inArray(appointments.status, [...UPCOMING]),
        ),
      )
      .orderBy(asc(appointments.startsAt))
      .limit(1);
    if (!next) continue;
    const status = REPLY_STATUS[m.reply];
    await runBatch(db, [
      db
        .update(appointments)
        .set({
          status,
          // A cancelled or moved appointment needs no more reminders.
          ...(status === "confirmed" ? {} : { nextReminderAt: null }),
          updatedAt: now,
        })
        .where(and(eq(appointments.id, next.id), inArray(appointments.status, [...UPCOMING]))),
      logActivity(db, "appointment_reply", {
        userId: null,
        now,
        details: { appointmentId: next.id, contactId: m.contactId, reply: m.reply, messageId: m.id },
      }),
    ]);
    answered.push(m.id);
    inputs.push({
      channel: "sms",
      kind: "appointment",
      content: replyAnswerText(
        {
          ...next,
          closerName: closerNameOf(next),
        },
        m.reply,
      ),
      idempotencyKey: `appt-reply:${m.id}`,
      contactId: m.contactId,
      phone: m.phone,
      createdBy: next.closerId,
    });
  }
  if (inputs.length) await createOutboundMessages(db, queue, inputs, now);
  return { answered };
}
