import type { DomainContext } from "~/db/domain-context";
import type { ContactEventHooks } from "~/contacts/contact-event-hooks";
import { AppError } from "~/lib/app-error";
import { bookAppointment } from "./book-appointment.server";
import { loadBookingPage } from "./load-booking-page.server";

export const SLOT_TAKEN = "That time was just taken: please pick another.";

/**
 * A homeowner picks a slot on the booking page (decision 058). The token already named the contact; the slot must
 * still be one the page offers now (inside the closer's hours, free, not too soon), then it is booked like any
 * appointment — stage, confirmation text, reminders — with the closer as the one who booked it.
 */
export async function bookFromLink(
  ctx: DomainContext,
  contactId: number,
  slot: number,
  ipAddress: string | null,
  hooks?: ContactEventHooks,
) {
  const page = await loadBookingPage(ctx.db, contactId, ctx.now);
  if (!page?.closer) throw new AppError("not_found", "This booking link is not valid.");
  if (!page.slots.some((s) => s.at === slot)) throw new AppError("conflict", SLOT_TAKEN, { field: "slot" });
  const booked = await bookAppointment(
    ctx,
    {
      contactId,
      startsAt: new Date(slot),
      timeZone: page.zone,
      closerUserId: page.closer.id,
      location: null,
      meetingLink: null,
      note: "Booked by the homeowner from the booking link",
    },
    // The link is the authority for this one contact: booked on the closer's behalf, whoever owns the lead.
    { userId: page.closer.id, role: "superuser", ipAddress },
    hooks,
  );
  return { ...booked, startsAt: new Date(slot), zone: page.zone, closer: page.closer };
}
