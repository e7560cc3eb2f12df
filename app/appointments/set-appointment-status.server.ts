import { and, eq, sql } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import { runBatch } from "~/db/client.server";
import type { Db } from "~/db/client.server";
import { appointments, type AppointmentStatus } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { AppError } from "~/lib/app-error";
import { getContact } from "~/contacts/get-contact.server";
import { advanceStageStatement } from "~/contacts/set-contact-stage.server";
import { NO_CONTACT_EVENT_HOOKS, type ContactEventHooks } from "~/contacts/contact-event-hooks";
import type { ContactViewer } from "~/contacts/contact-scope.server";
import { UPCOMING } from "./appointment-texts";

export const APPOINTMENT_NOT_FOUND = "Appointment not found";
/** Stages a sat appointment moves a contact out of (forward only). */
const BEFORE_SAT = ["new", "contacted", "appointment_set"];

/**
 * A rep marks one of a contact's appointments (decision 055): confirmed, sat (`completed`: the contact moves to "Sat"
 * from an earlier stage), no-show or cancelled. Only on a contact the person sees; an appointment that will not happen
 * stops its reminders. One batch: the row, the stage, the activity entry.
 */
export async function setAppointmentStatus(
  db: Db,
  input: { contactId: number; appointmentId: number; status: AppointmentStatus },
  actor: Actor & ContactViewer,
  now: Date,
  hooks: ContactEventHooks = NO_CONTACT_EVENT_HOOKS,
) {
  const contact = await getContact(db, input.contactId, actor);
  const upcoming = (UPCOMING as string[]).includes(input.status);
  const [changed, sat] = (await runBatch(db, [
    db
      .update(appointments)
      .set({ status: input.status, updatedAt: now, ...(upcoming ? {} : { nextReminderAt: null }) })
      .where(and(eq(appointments.id, input.appointmentId), eq(appointments.contactId, contact.id)))
      .returning({ id: appointments.id }),
    advanceStageStatement(
      db,
      {
        contactId: contact.id,
        to: "sat",
        from: BEFORE_SAT,
        // Only a sat appointment, and only one of this contact's.
        when: sql`${input.status === "completed" ? 1 : 0} = 1 AND EXISTS (SELECT 1 FROM ${appointments} a
          WHERE a.id = ${input.appointmentId} AND a.contact_id = ${contact.id})`,
      },
      now,
    ),
    logActivity(db, "set_appointment_status", {
      ...actor,
      now,
      details: { appointmentId: input.appointmentId, contactId: contact.id, status: input.status },
    }),
  ] as const)) as [{ id: number }[], { id: number }[]];
  if (!changed.length) throw new AppError("not_found", APPOINTMENT_NOT_FOUND);
  // The sequences these events start (decision 059): Sat reached, or a no-show to win back.
  if (sat.length) await hooks.stageChanged({ db, now }, [contact.id], "sat");
  if (input.status === "no_show") await hooks.appointmentNoShow({ db, now }, contact.id);
  return { id: changed[0].id, status: input.status };
}
