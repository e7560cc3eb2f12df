import { and, asc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { appointments, closerAvailability, contacts, users } from "~/db/schema";
import { localToUtc } from "~/campaigns/local-time";
import { wallClock, zoneFormatter } from "~/lib/zone-clock";
import { personName } from "~/lib/names";
import { appointmentVariables, UPCOMING } from "./appointment-texts";

/** Slots a booking page offers: the next DAYS days, SLOT_MINUTES each, no sooner than LEAD_MS from now. */
export const BOOKING_DAYS = 7;
export const SLOT_MINUTES = 60;
const LEAD_MS = 2 * 3600_000;
const DAY = 86_400_000;

export type BookingSlot = { at: number; date: string; time: string };

/**
 * What the login-free booking page shows a contact (decision 058): the closer — the contact's owner when they have
 * weekly hours, else the first active user who has — and the hour-long slots inside those hours over the next week
 * that no upcoming appointment of theirs overlaps, labelled in the homeowner's zone (the closer's when unknown).
 */
export async function loadBookingPage(db: Db, contactId: number, now: Date) {
  const contact = await db
    .select({
      id: contacts.id,
      firstName: contacts.firstName,
      ownerUserId: contacts.ownerUserId,
      timeZone: contacts.timeZone,
    })
    .from(contacts)
    .where(eq(contacts.id, contactId))
    .get();
  if (!contact) return null;
  // The owner first, among active users with hours (a team: a handful of rows).
  const closer = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(closerAvailability)
    .innerJoin(users, eq(users.id, closerAvailability.userId))
    .where(eq(users.isActive, true))
    .orderBy(sql`${users.id} = ${contact.ownerUserId ?? 0} DESC`, asc(users.id))
    .limit(1)
    .get();
  if (!closer)
    return { contact, closer: null, zone: contact.timeZone ?? "America/New_York", slots: [] as BookingSlot[] };
  const [hours, booked] = await Promise.all([
    db.select().from(closerAvailability).where(eq(closerAvailability.userId, closer.id)),
    db
      .select({ startsAt: appointments.startsAt, minutes: appointments.durationMinutes })
      .from(appointments)
      .where(
        and(
          eq(appointments.closerUserId, closer.id),
          gt(appointments.startsAt, new Date(now.getTime() - DAY)),
          lt(appointments.startsAt, new Date(now.getTime() + (BOOKING_DAYS + 1) * DAY)),
          inArray(appointments.status, [...UPCOMING]),
        ),
      ),
  ]);
  const zone = contact.timeZone ?? hours[0]?.timeZone ?? "America/New_York";
  const slots: BookingSlot[] = [];
  for (const h of hours) {
    const f = zoneFormatter(h.timeZone);
    if (!f) continue;
    for (let d = 0; d <= BOOKING_DAYS; d++) {
      const t = now.getTime() + d * DAY;
      const clock = wallClock(f, t);
      if (clock.weekday !== h.weekday) continue;
      const ymd = new Date(t + clock.offset).toISOString().slice(0, 10); // the closer's local date
      for (let m = h.startMinute; m + SLOT_MINUTES <= h.endMinute; m += SLOT_MINUTES) {
        const local = `${ymd}T${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
        const at = localToUtc(local, h.timeZone)?.getTime();
        if (at === undefined || at < now.getTime() + LEAD_MS || at > now.getTime() + BOOKING_DAYS * DAY) continue;
        const end = at + SLOT_MINUTES * 60_000;
        if (booked.some((b) => b.startsAt.getTime() < end && b.startsAt.getTime() + b.minutes * 60_000 > at)) continue;
        const v = appointmentVariables({ startsAt: new Date(at), timeZone: zone, meetingLink: null });
        slots.push({ at, date: v.appointmentDate, time: v.appointmentTime });
      }
    }
  }
  slots.sort((a, b) => a.at - b.at);
  return { contact, closer: { id: closer.id, name: personName(closer) }, zone, slots };
}
