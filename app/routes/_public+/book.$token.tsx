import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { appointmentVariables } from "~/appointments/appointment-texts";
import { bookFromLink } from "~/appointments/book-from-link.server";
import { verifyBookingToken } from "~/appointments/booking-token.server";
import { loadBookingPage } from "~/appointments/load-booking-page.server";
import { Alert, Button } from "~/components/ui";
import { messagingConfig } from "~/messaging/messaging-config.server";
import { publicFormAction } from "~/http/form-action.server";
import { bodyTooLarge, MAX_SMALL_FORM_BYTES } from "~/http/read-body.server";
import { contactEventHooks } from "~/wiring/contact-event-hooks.server";

export const meta: MetaFunction = () => [{ title: "Book a time — Helio" }];

// No login (decision 058): the signed token names the contact, like the unsubscribe links. GET shows the free slots;
// POST books one, re-checked on the server.
async function contactFor(args: { params: { token?: string }; context: LoaderFunctionArgs["context"] }) {
  const env = args.context.cloudflare.env;
  const id = await verifyBookingToken(
    messagingConfig(env).unsubscribeSecret,
    args.params.token ?? "",
    args.context.clock(),
  );
  if (id === null) throw new Response("This booking link is not valid or has expired.", { status: 404 });
  return id;
}

export async function loader(args: LoaderFunctionArgs) {
  const page = await loadBookingPage(args.context.db, await contactFor(args), args.context.clock());
  if (!page) throw new Response("This booking link is not valid or has expired.", { status: 404 });
  return { firstName: page.contact.firstName, closer: page.closer?.name ?? null, slots: page.slots };
}

const schema = z.object({
  slot: z.coerce
    .number({ invalid_type_error: "Pick a time", required_error: "Pick a time" })
    .int()
    .positive("Pick a time"),
});

export async function action(args: ActionFunctionArgs) {
  const contactId = await contactFor(args);
  return publicFormAction(
    args,
    { schema, limit: { maxBytes: MAX_SMALL_FORM_BYTES, message: bodyTooLarge(MAX_SMALL_FORM_BYTES) } },
    async (input, { ipAddress }) => {
      const b = await bookFromLink(
        { db: args.context.db, queue: args.context.queue, now: args.context.clock() },
        contactId,
        input.slot,
        ipAddress,
        contactEventHooks(args.context.queue),
      );
      const v = appointmentVariables({ startsAt: b.startsAt, timeZone: b.zone, meetingLink: null });
      return { booked: v.appointmentDateTime, closer: b.closer.name };
    },
  );
}

export default function Book() {
  const { firstName, closer, slots } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as
    | { booked?: string; closer?: string | null; ok?: false; message?: string }
    | undefined;
  const done = reply?.booked ? reply : undefined;
  const error = reply?.ok === false ? reply.message : undefined;
  const pending = useNavigation().state === "submitting";
  const days = [...new Set(slots.map((s) => s.date))];
  return (
    <main className="flex min-h-full items-start justify-center p-4">
      <div className="w-full max-w-md rounded-xl border border-border bg-surface p-6 shadow-sm">
        <h1 className="text-xl font-bold">
          {done?.booked ? "You're booked" : "Pick a time for your solar consultation"}
        </h1>
        {done?.booked ? (
          <p className="mt-3" data-testid="booked">
            {firstName ? `Thanks, ${firstName}! ` : "Thanks! "}We&apos;ll see you on <strong>{done.booked}</strong>
            {done.closer ? ` with ${done.closer}` : ""}. A confirmation text is on its way.
          </p>
        ) : slots.length === 0 ? (
          <p className="mt-3 text-fg-muted">No times are open this week. Reply to our text and we&apos;ll find one.</p>
        ) : (
          <Form method="post" className="mt-4 space-y-4">
            {error ? <Alert tone="danger">{error}</Alert> : null}
            {closer ? <p className="text-sm text-fg-muted">With {closer}. Times are in your time zone.</p> : null}
            {days.map((day) => (
              <fieldset key={day} className="space-y-2">
                <legend className="text-sm font-medium">{day}</legend>
                <div className="flex flex-wrap gap-2">
                  {slots
                    .filter((s) => s.date === day)
                    .map((s) => (
                      <label
                        key={s.at}
                        className="flex items-center gap-2 rounded-md border border-border px-3 py-2 text-sm"
                      >
                        <input type="radio" name="slot" value={s.at} required className="accent-primary" /> {s.time}
                      </label>
                    ))}
                </div>
              </fieldset>
            ))}
            <Button type="submit" disabled={pending}>
              Book this time
            </Button>
          </Form>
        )}
      </div>
    </main>
  );
}
