import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { getAvailability, setAvailability } from "~/appointments/set-availability.server";
import { SCHEDULE_ZONES } from "~/campaigns/local-time";
import { Button, Card, Field, PageHeader } from "~/components/ui";
import { formAction } from "~/http/form-action.server";
import { requireUser } from "~/http/guard.server";
import { redirectWithToast, refuseBackWithToast } from "~/http/toast.server";

export const meta: MetaFunction = () => [{ title: "Booking hours — Helio" }];

/** The US zones a closer works in (the schedule fields' list, with Arizona, Alaska and Hawaii). */
const BOOKING_ZONES = [
  ...SCHEDULE_ZONES.filter((z) => z !== "UTC"),
  "America/Phoenix",
  "America/Anchorage",
  "Pacific/Honolulu",
  "UTC",
];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const minutes = (v: string) => {
  const m = TIME.exec(v);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
};

/** Account → booking hours (decision 058): the weekly hours the login-free booking page offers slots in. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  const rows = await getAvailability(args.context.db, user.id);
  return {
    timeZone: rows[0]?.timeZone ?? "America/New_York",
    days: WEEKDAYS.map((name, weekday) => {
      const r = rows.find((x) => x.weekday === weekday);
      return { weekday, name, on: Boolean(r), start: hhmm(r?.startMinute ?? 540), end: hhmm(r?.endMinute ?? 1020) };
    }),
  };
}

const time = z.string().max(5).regex(TIME, "Enter a time like 09:00");
const schema = z.object({
  tz: z.string().trim().min(1, "Choose a time zone").max(64),
  ...Object.fromEntries(
    WEEKDAYS.flatMap((_, w) => [
      [`on${w}`, z.literal("on").optional()],
      [`start${w}`, time],
      [`end${w}`, time],
    ]),
  ),
});

export async function action(args: ActionFunctionArgs) {
  return formAction(
    args,
    {
      schema,
      title: "Hours not saved",
      ...refuseBackWithToast(args.context, "Hours not saved", () => "/account/availability"),
    },
    async (input, { user }) => {
      const f = input as Record<string, string | undefined>;
      const days = WEEKDAYS.flatMap((_, w) =>
        f[`on${w}`] ? [{ weekday: w, startMinute: minutes(f[`start${w}`]!)!, endMinute: minutes(f[`end${w}`]!)! }] : [],
      );
      await setAvailability(args.context.db, user.id, { timeZone: input.tz, days });
      return redirectWithToast(args.context, "/account/availability", { title: "Booking hours saved" });
    },
  );
}

export default function Availability() {
  const { timeZone, days } = useLoaderData<typeof loader>();
  const pending = useNavigation().state === "submitting";
  const zones = [...new Set([timeZone, ...BOOKING_ZONES])];
  return (
    <div className="space-y-6">
      <PageHeader
        title="Booking hours"
        description="When homeowners can book you from a booking link: hour-long slots inside these hours, over the next week."
      />
      <Card>
        <Form method="post" className="space-y-4" data-testid="availability-form">
          <Field
            as="select"
            label="Time zone"
            name="tz"
            defaultValue={timeZone}
            options={zones.map((z) => ({ value: z, label: z }))}
          />
          {days.map((d) => (
            <fieldset key={d.weekday} className="grid grid-cols-[6rem_minmax(0,1fr)_minmax(0,1fr)] items-end gap-2">
              <legend className="sr-only">{d.name}</legend>
              <label className="flex w-32 items-center gap-2 text-sm font-medium">
                <input type="checkbox" name={`on${d.weekday}`} defaultChecked={d.on} className="accent-primary" />
                {d.name}
              </label>
              <Field
                label={`${d.name} from`}
                id={`start${d.weekday}`}
                name={`start${d.weekday}`}
                type="time"
                defaultValue={d.start}
              />
              <Field
                label={`${d.name} to`}
                id={`end${d.weekday}`}
                name={`end${d.weekday}`}
                type="time"
                defaultValue={d.end}
              />
            </fieldset>
          ))}
          <Button type="submit" disabled={pending}>
            Save hours
          </Button>
        </Form>
      </Card>
    </div>
  );
}
