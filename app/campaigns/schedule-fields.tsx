import { Field, Select } from "~/components/ui";
import { useHydrated } from "~/lib/use-hydrated";
import { SCHEDULE_ZONES } from "./local-time";

/**
 * "Start now" or "Start at" a date/time. The datetime-local value has no zone, so the form also posts `tz`, an IANA
 * zone: without JS a select of the US zones and UTC (default America/New_York, the send windows' default); once
 * hydrated the browser's own zone is added and selected. The server converts the pair to UTC (localToUtc).
 */
const CAMPAIGN_LABELS = {
  now: "Start when I press Start",
  later: "Start at a date and time",
  field: "Start date and time",
};

export function ScheduleFields({
  schedule,
  startAt,
  tz,
  errors,
  labels = CAMPAIGN_LABELS,
}: {
  schedule: "now" | "later";
  startAt: string;
  tz: string;
  errors?: string[] | null;
  labels?: { now: string; later: string; field: string };
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Scheduling</legend>
      <div className="flex flex-wrap gap-4 text-sm">
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="schedule"
            value="now"
            defaultChecked={schedule !== "later"}
            className="accent-primary"
          />{" "}
          {labels.now}
        </label>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="schedule"
            value="later"
            defaultChecked={schedule === "later"}
            className="accent-primary"
          />{" "}
          {labels.later}
        </label>
      </div>
      <ZonedDateTimeField label={labels.field} name="startAt" value={startAt} tz={tz} errors={errors} />
    </fieldset>
  );
}

/**
 * The one time input of Helio's screens: a `datetime-local` (no zone) and `tz`, an IANA zone — without JS a select
 * of the US zones and UTC (default America/New_York, the send windows' default); once hydrated the browser's own
 * zone is added and selected. The server turns the pair into a UTC instant with localToUtc (local-time.ts).
 */
export function ZonedDateTimeField({
  label,
  name,
  value,
  tz,
  errors,
  hint,
  id,
}: {
  label: string;
  name: string;
  value: string;
  tz: string;
  errors?: string[] | null;
  hint?: string;
  id?: string;
}) {
  const hydrated = useHydrated();
  const browserZone = hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : null;
  const zones = [...new Set([...(browserZone ? [browserZone] : []), ...(tz ? [tz] : []), ...SCHEDULE_ZONES])];
  const selected = tz || browserZone || "America/New_York";
  const zoneId = `${id ?? name}-tz`;
  return (
    <div className="flex flex-wrap items-end gap-3">
      <Field label={label} name={name} id={id} type="datetime-local" defaultValue={value} errors={errors} hint={hint} />
      <div>
        <label htmlFor={zoneId} className="mb-1 block text-sm font-medium">
          Time zone
        </label>
        <Select id={zoneId} name="tz" key={selected} defaultValue={selected}>
          {zones.map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </Select>
      </div>
    </div>
  );
}
