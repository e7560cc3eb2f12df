import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { STATUS_LABELS } from "~/appointments/appointment-texts";
import { APPOINTMENT_NOT_FOUND, setAppointmentStatus } from "~/appointments/set-appointment-status.server";
import { APPOINTMENT_STATUSES } from "~/db/schema/appointments";
import { contactSubrouteAction, contactSubrouteLoader } from "~/http/contact-guard.server";
import { backField } from "~/http/form-schema";
import { routeId } from "~/http/http.server";
import { redirectWithToast } from "~/http/toast.server";
import { contactEventHooks } from "~/wiring/contact-event-hooks.server";

// POST /contacts/:id/appointments/:appointmentId — mark an appointment confirmed, sat, no-show or cancelled
// (decision 055). The buttons on the contact page's Appointments card post here.
const schema = z.object({
  status: z.enum(APPOINTMENT_STATUSES, { errorMap: () => ({ message: "Choose what happened" }) }),
  back: backField,
});

/** Nothing to show here: a GET goes to the contact's page. */
export function loader(args: LoaderFunctionArgs) {
  return contactSubrouteLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return contactSubrouteAction(
    args,
    { schema, refused: "Appointment not changed" },
    async (input, { id, actor, backTo }) => {
      const { status } = await setAppointmentStatus(
        args.context.db,
        {
          contactId: id,
          appointmentId: routeId(args.params.appointmentId, APPOINTMENT_NOT_FOUND),
          status: input.status,
        },
        actor,
        args.context.clock(),
        contactEventHooks(args.context.queue),
      );
      return redirectWithToast(args.context, backTo(input.back), { title: `Appointment: ${STATUS_LABELS[status]}` });
    },
  );
}
