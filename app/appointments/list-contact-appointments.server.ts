import { desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { appointments } from "~/db/schema";
import { appointmentTextColumns, closer, closerNameOf } from "./appointment-columns.server";

/** A contact's appointments shown at once (newest start first); a contact has a handful. */
export const CONTACT_APPOINTMENTS = 20;

/**
 * A contact's appointments for its page, latest first (appointments_contact_idx): the read, which the contact page
 * runs in its own batch once the scope check is under way (its rows are used only after it passed).
 */
export function selectContactAppointments(db: Db, contactId: number) {
  return db
    .select({
      id: appointments.id,
      ...appointmentTextColumns,
      status: appointments.status,
      note: appointments.note,
      remindersSent: appointments.remindersSent,
      closerEmail: closer.email,
    })
    .from(appointments)
    .leftJoin(closer, eq(closer.id, appointments.closerUserId))
    .where(eq(appointments.contactId, contactId))
    .orderBy(desc(appointments.startsAt))
    .limit(CONTACT_APPOINTMENTS);
}

/** The rows as the page shows them: the start as an ISO string, the closer by name (else email). */
export function contactAppointmentsFrom(rows: Awaited<ReturnType<typeof selectContactAppointments>>) {
  return rows.map(({ closerId, closerFirst, closerLast, closerEmail, startsAt, ...a }) => ({
    ...a,
    startsAt: startsAt.toISOString(),
    closer: closerEmail ? (closerNameOf({ closerId, closerFirst, closerLast }) ?? closerEmail) : null,
  }));
}
