import { Form, useNavigation } from "@remix-run/react";
import { Badge, Button, Card, Field, PostButton } from "~/components/ui";
import { ZonedDateTimeField } from "~/campaigns/schedule-fields";
import type { AppointmentStatus } from "~/db/schema/appointments";
import { ownerOptions } from "~/contacts/owner-card";
import { appointmentVariables, STATUS_LABELS, UPCOMING } from "./appointment-texts";

export type AppointmentRow = {
  id: number;
  startsAt: string;
  timeZone: string;
  status: AppointmentStatus;
  location: string | null;
  meetingLink: string | null;
  note: string | null;
  remindersSent: number;
  closer: string | null;
};

const TONE: Record<AppointmentStatus, "neutral" | "success" | "danger" | "info" | "warning"> = {
  scheduled: "info",
  confirmed: "success",
  reschedule_requested: "warning",
  completed: "success",
  no_show: "danger",
  cancelled: "neutral",
};
/** What a rep can mark an appointment as from each status. */
const NEXT: Partial<Record<AppointmentStatus, AppointmentStatus[]>> = {
  scheduled: ["confirmed", "completed", "no_show", "cancelled"],
  confirmed: ["completed", "no_show", "cancelled"],
  reschedule_requested: ["cancelled"],
};
const ACTION_LABELS: Partial<Record<AppointmentStatus, string>> = {
  confirmed: "Confirm",
  completed: "Sat",
  no_show: "No-show",
  cancelled: "Cancel",
};

/**
 * A contact's appointments and the form that books one (decision 055): times in the homeowner's zone, the closer, the
 * place or link, what happened. Plain forms posting to /contacts/:id/appointments(/:appointmentId), so it works
 * without JavaScript; the time field is the screens' one zoned time input, defaulting to the contact's zone.
 */
export function AppointmentsCard({
  contactId,
  appointments,
  closers,
  me,
  contactZone,
  back,
  bookingLink,
}: {
  contactId: number;
  appointments: readonly AppointmentRow[];
  closers: readonly { id: number; name: string }[];
  me: number;
  contactZone: string | null;
  back: string;
  /** The login-free link the homeowner books from (decision 058), to paste in a reply; null without a secret. */
  bookingLink: string | null;
}) {
  const pending = useNavigation().state === "submitting";
  return (
    <Card title="Appointments">
      {appointments.length === 0 ? (
        <p className="text-sm text-fg-muted">No appointments yet.</p>
      ) : (
        <ul className="space-y-3 text-sm" data-testid="appointments">
          {appointments.map((a) => {
            const when = appointmentVariables({
              startsAt: new Date(a.startsAt),
              timeZone: a.timeZone,
              meetingLink: null,
            });
            return (
              <li key={a.id} className="space-y-1 break-words" data-testid="appointment">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{when.appointmentDateTime}</span>
                  <Badge tone={TONE[a.status]}>{STATUS_LABELS[a.status]}</Badge>
                </p>
                <p className="text-fg-muted">
                  {a.closer ? `With ${a.closer}` : "No closer yet"}
                  {a.location ? ` · ${a.location}` : ""}
                  {(UPCOMING as string[]).includes(a.status) ? ` · reminders sent: ${a.remindersSent} of 2` : ""}
                </p>
                {a.meetingLink ? <p className="break-all text-fg-muted">{a.meetingLink}</p> : null}
                {a.note ? <p className="whitespace-pre-wrap">{a.note}</p> : null}
                {NEXT[a.status]?.length ? (
                  <div className="flex flex-wrap gap-2">
                    {NEXT[a.status]!.map((s) => (
                      <PostButton
                        key={s}
                        intent="status"
                        action={`/contacts/${contactId}/appointments/${a.id}`}
                        fields={{ status: s, back }}
                        of={when.appointmentDateTime}
                        variant={s === "cancelled" || s === "no_show" ? "outline" : "secondary"}
                      >
                        {ACTION_LABELS[s]!}
                      </PostButton>
                    ))}
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {bookingLink ? (
        <div className="mt-4 border-t pt-3">
          <Field
            label="Booking link"
            id={`booking-link-${contactId}`}
            name="bookingLink"
            readOnly
            value={bookingLink}
            hint="Paste it in a text: the homeowner picks a time in a closer's booking hours, no login."
          />
        </div>
      ) : null}
      <Form method="post" action={`/contacts/${contactId}/appointments`} className="mt-4 space-y-3 border-t pt-3">
        <input type="hidden" name="back" value={back} />
        <p className="text-sm font-medium">Book an appointment</p>
        <ZonedDateTimeField
          label="Date and time"
          name="startsAt"
          id={`appointment-at-${contactId}`}
          value=""
          tz={contactZone ?? ""}
          hint="In the homeowner's time zone; texts quote it there."
        />
        <Field
          as="select"
          label="Closer"
          id={`appointment-closer-${contactId}`}
          name="closerUserId"
          defaultValue={String(me)}
          options={ownerOptions(closers, me).map((o) => (o.value === "" ? { ...o, label: "No closer yet" } : o))}
        />
        <Field
          label="Place"
          id={`appointment-place-${contactId}`}
          name="location"
          maxLength={300}
          placeholder="At the home"
        />
        <Field
          label="Meeting link"
          id={`appointment-link-${contactId}`}
          name="meetingLink"
          type="url"
          maxLength={500}
          placeholder="https://…"
        />
        <Field label="Appointment note" id={`appointment-note-${contactId}`} name="note" maxLength={500} />
        <Button type="submit" variant="secondary" disabled={pending}>
          Book appointment
        </Button>
      </Form>
    </Card>
  );
}
