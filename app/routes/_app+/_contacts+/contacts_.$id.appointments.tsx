import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { bookAppointment } from "~/appointments/book-appointment.server";
import { INVALID_START_AT, localToUtc } from "~/campaigns/local-time";
import { contactSubrouteAction, contactSubrouteLoader } from "~/http/contact-guard.server";
import { backField } from "~/http/form-schema";
import { ownerField } from "~/http/owner-form";
import { redirectWithToast } from "~/http/toast.server";
import { AppError } from "~/lib/app-error";
import { contactEventHooks } from "~/wiring/contact-event-hooks.server";

// POST /contacts/:id/appointments — book an appointment for the contact (decision 055): the contact page's
// Appointments card posts here; the answer goes back to the page that asked.
const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .optional()
    .transform((v) => v || null);
const schema = z.object({
  startsAt: z.string({ required_error: INVALID_START_AT }).trim().min(1, INVALID_START_AT).max(40, INVALID_START_AT),
  tz: z.string().trim().min(1, "Choose a time zone").max(64, "Choose a time zone"),
  closerUserId: ownerField,
  location: optionalText(300, "Keep the place under 300 characters"),
  meetingLink: optionalText(500, "Keep the link under 500 characters").refine(
    (v) => v === null || /^https:\/\/[^\s]+$/i.test(v),
    "Enter the meeting link as a full https:// address",
  ),
  note: optionalText(500, "Keep the note under 500 characters"),
  back: backField,
});

/** Nothing to show here: a GET goes to the contact's page. */
export function loader(args: LoaderFunctionArgs) {
  return contactSubrouteLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return contactSubrouteAction(
    args,
    { schema, refused: "Appointment not booked" },
    async (input, { id, actor, backTo }) => {
      const startsAt = localToUtc(input.startsAt, input.tz);
      if (!startsAt) throw new AppError("validation", INVALID_START_AT, { field: "startsAt" });
      const booked = await bookAppointment(
        { db: args.context.db, queue: args.context.queue, now: args.context.clock() },
        {
          contactId: id,
          startsAt,
          timeZone: input.tz,
          closerUserId: input.closerUserId,
          location: input.location,
          meetingLink: input.meetingLink,
          note: input.note,
        },
        actor,
        contactEventHooks(args.context.queue),
      );
      return redirectWithToast(args.context, backTo(input.back), {
        title: "Appointment booked",
        description: booked.confirmationMessageId
          ? "The confirmation text is on its way; reminders go out the day before and 2 hours before."
          : "This contact has no phone number: no confirmation or reminders will be texted.",
      });
    },
  );
}
