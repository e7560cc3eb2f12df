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

/**
 * Each formatter's recent offsets by UTC minute. formatToParts is the costly part (the send consumer asks for every
 * message, twice, at the batch's instant), and a zone's offset is the same for a whole minute: no zone changes it
 * between whole minutes (transitions fall on whole local hours or half hours of whole-quarter-hour offsets).
 */
const offsets = new WeakMap<Intl.DateTimeFormat, Map<number, number>>();
const OFFSETS_KEPT = 256;

/** Local wall clock minus UTC at `ms`, to the whole second, read from the formatter. */
function offsetAt(f: Intl.DateTimeFormat, ms: number): number {
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(ms)) if (part.type !== "literal") p[part.type] = Number(part.value);
  const hour = p.hour === 24 ? 0 : p.hour; // some engines print midnight as 24 even with h23
  const wholeSecond = ms - (((ms % 1000) + 1000) % 1000);
  return Date.UTC(p.year, p.month - 1, p.day, hour, p.minute, p.second) - wholeSecond;
}

/** The local time at `ms` on the zone's formatter. */
export function wallClock(f: Intl.DateTimeFormat, ms: number): WallClock {
  const minute = Math.floor(ms / 60_000);
  let known = offsets.get(f);
  if (!known) offsets.set(f, (known = new Map()));
  let offset = known.get(minute);
  if (offset === undefined) {
    if (known.size >= OFFSETS_KEPT) known.clear();
    offset = offsetAt(f, ms);
    known.set(minute, offset);
  }
  const local = new Date(ms + offset);
  const day = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  return {
    minuteOfDay: local.getUTCHours() * 60 + local.getUTCMinutes(),
    weekday: local.getUTCDay(),
    localDay: day,
    offset,
  };
}
