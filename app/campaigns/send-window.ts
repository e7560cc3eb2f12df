// Per-step send windows ("between 10:00 and 17:00 in the contact's time zone, weekdays only"). Pure; the
// dispatcher moves a step's due time into the next window. Quiet hours are applied on top by the send pipeline.
import { wallClock, zoneFormatter } from "~/lib/zone-clock";

export type StepWindow = { startMinute: number; endMinute: number; weekdaysOnly: boolean };

/** Contacts without a usable zone are read in the product's default US zone. */
export const WINDOW_FALLBACK_ZONE = "America/New_York";

const MINUTE = 60_000;

/** The zone's formatter; an unknown zone reads as the fallback zone. */
const formatter = (timeZone: string | null) =>
  zoneFormatter(timeZone || WINDOW_FALLBACK_ZONE) ?? zoneFormatter(WINDOW_FALLBACK_ZONE)!;

/** "HH:MM" → minutes after midnight, or null. "24:00" is accepted as an end of day. */
export function parseClock(v: string): number | null {
  const m = /^([01]?\d|2[0-4]):([0-5]\d)$/.exec(v.trim());
  if (!m) return null;
  const n = Number(m[1]) * 60 + Number(m[2]);
  return n <= 1440 ? n : null;
}

export function formatClock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** `ms` when it is inside the window, else the start of the next window (whole minute) in the contact's zone. */
export function nextInStepWindow(ms: number, timeZone: string | null, w: StepWindow): number {
  const f = formatter(timeZone);
  let t = ms;
  for (let i = 0; i < 20; i++) {
    const here = wallClock(f, t);
    const dayOk = !w.weekdaysOnly || (here.weekday >= 1 && here.weekday <= 5);
    if (dayOk && here.minuteOfDay >= w.startMinute && here.minuteOfDay < w.endMinute) return t;
    // Jump to the next local window start (today when before it on an allowed day, else tomorrow's); a DST
    // change in between is corrected by re-reading the clock on the next pass.
    const delta =
      dayOk && here.minuteOfDay < w.startMinute
        ? w.startMinute - here.minuteOfDay
        : 1440 - here.minuteOfDay + w.startMinute;
    t = Math.floor(t / MINUTE) * MINUTE + delta * MINUTE;
  }
  return t;
}
