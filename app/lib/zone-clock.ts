// The wall clock in an IANA time zone, read with Intl.DateTimeFormat (no tz library); instants are epoch ms. Shared
// by quiet hours, the campaign steps' send windows and the scheduled-start field, so all three read a zone alike.

const formatters = new Map<string, Intl.DateTimeFormat | null>();

/** Cached formatter for a zone, or null when Intl rejects the zone. */
export function zoneFormatter(timeZone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      });
    } catch {
      f = null;
    }
    formatters.set(timeZone, f);
  }
  return f;
}

export interface WallClock {
  /** Minutes after local midnight. */
  minuteOfDay: number;
  /** Local day of the week, 0 = Sunday. */
  weekday: number;
  /** The local date as its UTC midnight (epoch ms): holidays are looked up by it. */
  localDay: number;
  /** Local wall clock minus UTC, in ms. */
  offset: number;
}

/** The local time at `ms` on the zone's formatter. */
export function wallClock(f: Intl.DateTimeFormat, ms: number): WallClock {
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(ms)) if (part.type !== "literal") p[part.type] = Number(part.value);
  const hour = p.hour === 24 ? 0 : p.hour; // some engines print midnight as 24 even with h23
  const day = Date.UTC(p.year, p.month - 1, p.day);
  const wholeSecond = ms - (((ms % 1000) + 1000) % 1000);
  return {
    minuteOfDay: hour * 60 + p.minute,
    weekday: new Date(day).getUTCDay(),
    localDay: day,
    offset: day + (hour * 3600 + p.minute * 60 + p.second) * 1000 - wholeSecond,
  };
}
