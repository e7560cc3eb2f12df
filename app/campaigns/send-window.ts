// Per-step send windows ("between 10:00 and 17:00 in the contact's time zone, weekdays only"). Pure; the
// dispatcher moves a step's due time into the next window. Quiet hours are applied on top by the send pipeline.

export type StepWindow = { startMinute: number; endMinute: number; weekdaysOnly: boolean };

/** Contacts without a usable zone are read in the product's default US zone. */
export const WINDOW_FALLBACK_ZONE = "America/New_York";

const MINUTE = 60_000;
const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAY: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

function formatter(timeZone: string | null): Intl.DateTimeFormat {
  const zone = timeZone || WINDOW_FALLBACK_ZONE;
  let f = formatters.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        hourCycle: "h23",
        weekday: "short",
        hour: "2-digit",
        minute: "2-digit",
      });
    } catch {
      f = formatter(WINDOW_FALLBACK_ZONE);
    }
    formatters.set(zone, f);
  }
  return f;
}

function localClock(f: Intl.DateTimeFormat, ms: number) {
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(ms)) p[part.type] = part.value;
  const hour = Number(p.hour) % 24;
  return { minute: hour * 60 + Number(p.minute), weekday: WEEKDAY[p.weekday] ?? 1 };
}

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
    const here = localClock(f, t);
    const dayOk = !w.weekdaysOnly || (here.weekday >= 1 && here.weekday <= 5);
    if (dayOk && here.minute >= w.startMinute && here.minute < w.endMinute) return t;
    // Jump to the next local window start (today when before it on an allowed day, else tomorrow's); a DST
    // change in between is corrected by re-reading the clock on the next pass.
    const delta =
      dayOk && here.minute < w.startMinute ? w.startMinute - here.minute : 1440 - here.minute + w.startMinute;
    t = Math.floor(t / MINUTE) * MINUTE + delta * MINUTE;
  }
  return t;
}
