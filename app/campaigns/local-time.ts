import { wallClock, zoneFormatter } from "~/lib/zone-clock";

/**
 * The create dialog's "start at" field is a `datetime-local` value ("YYYY-MM-DDTHH:MM", no zone) typed in the
 * browser's time zone. The form carries the zone as an IANA name (`tz`: a select whose default the browser replaces
 * with its own zone after hydration, so it also works without JS); the server turns the pair into a UTC instant.
 */
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** Offset of `zone` from UTC at `utcMs`, in ms (local = utc + offset); null for an unknown zone. */
function zoneOffset(zone: string, utcMs: number): number | null {
  const f = zoneFormatter(zone);
  return f ? wallClock(f, utcMs).offset : null;
}

/** "2026-12-01T09:30" in "America/Los_Angeles" → 2026-12-01T17:30Z; null for a malformed value or unknown zone. */
export function localToUtc(local: string, zone: string): Date | null {
  const m = LOCAL.exec(local.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  const first = zoneOffset(zone || "UTC", wall);
  if (first === null) return null;
  // Two passes: the offset at the guessed instant can differ from the offset at the wall time across a DST change.
  const second = zoneOffset(zone || "UTC", wall - first) ?? first;
  return new Date(wall - second);
}

/** The zones offered without JS (the browser's own zone is added and selected after hydration). */
export const SCHEDULE_ZONES = [
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Los_Angeles",
  "UTC",
] as const;

/** ScheduleFields' three values → the UTC instant, undefined for "now", null for a malformed time or zone. */
export function scheduledInstant(f: { schedule?: unknown; startAt?: unknown; tz?: unknown }): Date | undefined | null {
  if (f.schedule !== "later") return undefined;
  return localToUtc(typeof f.startAt === "string" ? f.startAt : "", typeof f.tz === "string" && f.tz ? f.tz : "UTC");
}
export const INVALID_START_AT = "Please enter a valid date and time";
