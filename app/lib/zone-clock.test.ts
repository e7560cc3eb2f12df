import { describe, expect, it } from "vitest";
import { wallClock, zoneFormatter } from "./zone-clock";

/** The wall clock read straight from Intl, with no cache: what wallClock must agree with. */
function fromIntl(zone: string, ms: number) {
  const p: Record<string, string> = {};
  for (const part of new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    weekday: "short",
  }).formatToParts(ms))
    p[part.type] = part.value;
  const hour = Number(p.hour) % 24;
  return {
    minuteOfDay: hour * 60 + Number(p.minute),
    weekday: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(p.weekday),
    localDay: Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day)),
  };
}

describe("wallClock", () => {
  // Whole-hour DST (New York), half-hour offsets and a half-hour DST step (Lord Howe), quarter-hour offsets (Kathmandu,
  // Chatham), the far side of the date line (Kiritimati), and a zone without DST (Phoenix).
  const zones = [
    "America/New_York",
    "Australia/Lord_Howe",
    "Asia/Kathmandu",
    "Pacific/Chatham",
    "Pacific/Kiritimati",
    "America/Phoenix",
  ];
  // Every 7 minutes 13 seconds across both 2026 DST changes in New York and Lord Howe's and Chatham's in April and
  // September/October, each instant read twice (the second read comes from the per-minute cache).
  const spans = [
    [Date.UTC(2026, 2, 7), Date.UTC(2026, 2, 9)],
    [Date.UTC(2026, 3, 3), Date.UTC(2026, 3, 6)],
    [Date.UTC(2026, 8, 25), Date.UTC(2026, 9, 5)],
    [Date.UTC(2026, 9, 31), Date.UTC(2026, 10, 2)],
  ];

  it("agrees with Intl at every instant, across DST changes and odd offsets, cached or not", () => {
    let checked = 0;
    for (const zone of zones) {
      const f = zoneFormatter(zone)!;
      for (const [from, to] of spans)
        for (let ms = from; ms < to; ms += 433_123) {
          const want = fromIntl(zone, ms);
          for (const read of [wallClock(f, ms), wallClock(f, ms + 17)]) {
            expect({ zone, ms, ...read, offset: undefined }).toEqual({ zone, ms, ...want, offset: undefined });
            checked++;
          }
        }
    }
    expect(checked).toBeGreaterThan(10_000);
  });

  it("gives the offset that turns the instant into its wall clock", () => {
    const f = zoneFormatter("America/New_York")!;
    // 2026-03-08 06:59:30 UTC is 01:59:30 EST; a minute later it is 03:00:30 EDT.
    expect(wallClock(f, Date.UTC(2026, 2, 8, 6, 59, 30)).offset).toBe(-5 * 3600_000);
    expect(wallClock(f, Date.UTC(2026, 2, 8, 7, 0, 30)).offset).toBe(-4 * 3600_000);
    expect(wallClock(f, Date.UTC(2026, 2, 8, 7, 0, 30)).minuteOfDay).toBe(3 * 60);
  });
});
