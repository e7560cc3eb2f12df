import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { appointments, users } from "~/db/schema";
import { personName } from "~/lib/names";

/** The appointment's closer, joined by `closer_user_id` (a left join: an appointment may have none yet). */
export const closer = alias(users, "closer");

/** What every text about an appointment needs of it and its closer (select with `closer` left-joined). */
export const appointmentTextColumns = {
  startsAt: appointments.startsAt,
  timeZone: appointments.timeZone,
  location: appointments.location,
  meetingLink: appointments.meetingLink,
  // Named apart from the appointment's own `id`: in a D1 batch (the contact page's) two columns called `id` would be one.
  closerId: sql<number | null>`${closer.id}`.as("closer_id"),
  closerFirst: closer.firstName,
  closerLast: closer.lastName,
};

/** The closer's name as the homeowner reads it, or null (no closer, or no name). */
export const closerNameOf = (r: { closerId: number | null; closerFirst: string | null; closerLast: string | null }) =>
  r.closerId === null ? null : personName({ firstName: r.closerFirst, lastName: r.closerLast });
