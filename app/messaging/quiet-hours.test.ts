import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { deriveTimeZone } from "~/contacts/us-geo";
import { createTestContact } from "../../tests/contact-factory";
import { createTestUser } from "../../tests/factories";
import { pipeline, appHooks } from "../../tests/messaging-harness";
import {
  FALLBACK_TIME_ZONES,
  isWithinSendWindow,
  nextAllowedSendTime,
  nextAllowedSendTimes,
  stateForRules,
  stateRuleFor,
} from "./quiet-hours.js";
import { describeRule, federalHolidays, STATE_RULES, UNPLACED_RULE, UNPLACED_STATE } from "./state-rules";
import { sendMessages } from "./consume-send-batch.server";
import { broadcastSchema, sendBroadcast } from "./send-broadcast.server";

const MINUTE = 60_000;
const at = (iso: string) => new Date(iso);
const next = (iso: string, tz: string | null, state: string | null = null) =>
  nextAllowedSendTime(at(iso), tz, state).toISOString();

describe("stateRuleFor: the weekday window of a state as typed", () => {
  it.each([
    [null, 480, 1260],
    ["CA", 480, 1260],
    ["NY", 480, 1260],
    ["TX", 540, 1260],
    ["CT", 540, 1200],
    ["RI", 540, 1080],
    ["FL", 480, 1200],
    ["OK", 480, 1200],
    ["MD", 480, 1200],
    ["WA", 480, 1200],
    [" fl ", 480, 1200],
    ["Florida", 480, 1200],
    ["washington", 480, 1200],
    ["", 480, 1260],
  ])("%j → %i–%i", (state, startMinute, endMinute) => {
    expect(stateRuleFor(state).weekday).toEqual({ startMinute, endMinute });
  });
});

describe("nextAllowedSendTimes: a send batch's memo", () => {
  it("answers exactly what nextAllowedSendTime answers, whatever instants of a minute come first", () => {
    const zones = [
      null,
      "America/New_York",
      "America/Denver",
      "America/Phoenix",
      "Asia/Kolkata",
      "Asia/Kathmandu",
      "Nope/Zone",
    ];
    const states = [null, "TX", "FL", "RI", "Texas", "ZZ"];
    // Two and a half minutes before a window opens or closes somewhere: New York, Denver and Phoenix at 08:00, Kathmandu
    // (+5:45) and Kolkata (+5:30) at 08:00, the unknown zone's last (Honolulu) at 08:00, New York at 21:00, and the
    // spring-forward and fall-back nights.
    const bases = [
      "2026-03-09T11:57:30Z",
      "2026-03-09T13:57:30Z",
      "2026-03-09T14:57:30Z",
      "2026-03-09T02:12:30Z",
      "2026-03-09T02:27:30Z",
      "2026-03-09T17:57:30Z",
      "2026-03-10T00:57:30Z",
      "2026-03-08T06:57:30Z",
      "2026-11-01T05:57:30Z",
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...bases),
        fc.array(
          fc.tuple(fc.integer({ min: 0, max: 5 * MINUTE }), fc.constantFrom(...zones), fc.constantFrom(...states)),
          {
            minLength: 1,
            maxLength: 40,
          },
        ),
        (base, asks) => {
          const memo = nextAllowedSendTimes();
          for (const [offset, zone, state] of asks) {
            const when = new Date(Date.parse(base) + offset);
            expect(memo(when, zone, state).getTime()).toBe(nextAllowedSendTime(when, zone, state).getTime());
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("nextAllowedSendTime — explicit cases", () => {
  it("returns now unchanged (milliseconds kept) inside the window", () => {
    const now = at("2026-06-15T16:30:12.345Z"); // 12:30:12 EDT
    expect(nextAllowedSendTime(now, "America/New_York", null).getTime()).toBe(now.getTime());
    expect(isWithinSendWindow(now, "America/New_York", null)).toBe(true);
  });

  it("opens at 08:00 with seconds zeroed and treats the end as exclusive", () => {
    expect(next("2026-06-15T11:59:30.500Z", "America/New_York")).toBe("2026-06-15T12:00:00.000Z"); // 07:59:30 EDT
    expect(next("2026-06-15T12:00:00.000Z", "America/New_York")).toBe("2026-06-15T12:00:00.000Z"); // 08:00 sharp
    expect(next("2026-06-16T00:59:59.999Z", "America/New_York")).toBe("2026-06-16T00:59:59.999Z"); // 20:59:59.999
    expect(next("2026-06-16T01:00:00.000Z", "America/New_York")).toBe("2026-06-16T12:00:00.000Z"); // 21:00 → next day
  });

  it("crosses local midnight and month/year boundaries", () => {
    expect(next("2026-06-16T03:30:00Z", "America/New_York")).toBe("2026-06-16T12:00:00.000Z"); // 23:30 EDT
    expect(next("2026-06-16T04:00:00Z", "America/New_York")).toBe("2026-06-16T12:00:00.000Z"); // 00:00 EDT
    expect(next("2027-01-01T06:00:00Z", "America/Los_Angeles")).toBe("2027-01-01T16:00:00.000Z"); // 22:00 PST Dec 31
    expect(next("2026-06-30T22:00:00Z", "Pacific/Honolulu")).toBe("2026-06-30T22:00:00.000Z"); // 12:00 HST
    expect(next("2026-07-01T08:00:00Z", "Pacific/Honolulu")).toBe("2026-07-01T18:00:00.000Z"); // 22:00 HST Jun 30
  });

  // America/New_York: spring forward 2026-03-08 (02:00 EST → 03:00 EDT at 07:00Z), fall back 2026-11-01 (02:00 EDT →
  // 01:00 EST at 06:00Z). The night before defers to 08:00 on the new offset, the gap and the repeated hour defer to
  // 08:00 too, and that evening ends at 21:00 on the new offset.
  it.each([
    ["2026-03-08T02:30:00Z", "2026-03-08T12:00:00.000Z", "Sat 21:30 EST"],
    ["2026-03-08T02:00:00Z", "2026-03-08T12:00:00.000Z", "Sat 21:00 EST"],
    ["2026-03-08T01:59:00Z", "2026-03-08T01:59:00.000Z", "Sat 20:59 EST"],
    ["2026-03-08T06:30:00Z", "2026-03-08T12:00:00.000Z", "01:30 EST"],
    ["2026-03-08T06:59:59Z", "2026-03-08T12:00:00.000Z", "01:59:59 EST"],
    ["2026-03-08T07:00:00Z", "2026-03-08T12:00:00.000Z", "03:00 EDT"],
    ["2026-03-08T11:59:00Z", "2026-03-08T12:00:00.000Z", "07:59 EDT"],
    ["2026-03-09T00:59:00Z", "2026-03-09T00:59:00.000Z", "20:59 EDT"],
    ["2026-03-09T01:00:00Z", "2026-03-09T12:00:00.000Z", "21:00 EDT"],
    ["2026-11-01T01:00:00Z", "2026-11-01T13:00:00.000Z", "Sat 21:00 EDT"],
    ["2026-11-01T00:59:00Z", "2026-11-01T00:59:00.000Z", "Sat 20:59 EDT"],
    ["2026-11-01T05:30:00Z", "2026-11-01T13:00:00.000Z", "01:30 EDT"],
    ["2026-11-01T06:30:00Z", "2026-11-01T13:00:00.000Z", "01:30 EST"],
    ["2026-11-01T07:00:00Z", "2026-11-01T13:00:00.000Z", "02:00 EST"],
    ["2026-11-02T01:59:00Z", "2026-11-02T01:59:00.000Z", "20:59 EST"],
    ["2026-11-02T02:00:00Z", "2026-11-02T13:00:00.000Z", "21:00 EST"],
  ])("New York around DST: %s → %s (%s)", (now, expected) => {
    expect(next(now, "America/New_York")).toBe(expected);
  });

  it("handles Europe/London's 01:00 UTC transitions", () => {
    expect(next("2026-03-28T21:30:00Z", "Europe/London")).toBe("2026-03-29T07:00:00.000Z"); // Sat 21:30 GMT → 08:00 BST
    expect(next("2026-10-24T20:00:00Z", "Europe/London")).toBe("2026-10-25T08:00:00.000Z"); // Sat 21:00 BST → 08:00 GMT
  });

  it("ends at 20:00 in FL, OK, MD and WA", () => {
    expect(next("2026-06-15T23:59:00Z", "America/New_York", "FL")).toBe("2026-06-15T23:59:00.000Z"); // 19:59 EDT
    expect(next("2026-06-16T00:00:00Z", "America/New_York", "FL")).toBe("2026-06-16T12:00:00.000Z"); // 20:00 EDT
    expect(next("2026-06-16T00:00:00Z", "America/New_York", "NY")).toBe("2026-06-16T00:00:00.000Z"); // 20:00 is fine in NY
    expect(next("2026-06-16T01:00:00Z", "America/Chicago", "OK")).toBe("2026-06-16T13:00:00.000Z"); // 20:00 CDT
    expect(next("2026-06-16T00:30:00Z", "America/Chicago", "OK")).toBe("2026-06-16T00:30:00.000Z"); // 19:30 CDT
    expect(next("2026-01-16T01:00:00Z", "America/New_York", "Maryland")).toBe("2026-01-16T13:00:00.000Z"); // 20:00 EST
    expect(next("2026-06-16T03:00:00Z", "America/Los_Angeles", "WA")).toBe("2026-06-16T15:00:00.000Z"); // 20:00 PDT
    expect(next("2026-03-08T01:00:00Z", "America/New_York", "FL")).toBe("2026-03-08T12:00:00.000Z"); // Sat 20:00 EST before spring-forward
  });

  it("holds each state's rule from the table: shorter windows, Sunday and holiday bans (issue 29)", () => {
    // [now, zone, state, expected]: each row names the rule it proves.
    const cases: [string, string, string, string][] = [
      // Texas: Mon–Sat 09:00–21:00, Sunday 12:00–21:00 (CST, UTC-6).
      ["2026-11-23T14:30:00Z", "America/Chicago", "TX", "2026-11-23T15:00:00.000Z"], // Mon 08:30 → 09:00
      ["2026-11-22T15:00:00Z", "America/Chicago", "TX", "2026-11-22T18:00:00.000Z"], // Sun 09:00 → 12:00
      ["2026-11-22T18:00:00Z", "America/Chicago", "TX", "2026-11-22T18:00:00.000Z"], // Sun 12:00 is open
      // Connecticut: 09:00–20:00 every day (EST).
      ["2026-11-23T13:30:00Z", "America/New_York", "CT", "2026-11-23T14:00:00.000Z"], // 08:30 → 09:00
      ["2026-11-24T01:00:00Z", "America/New_York", "CT", "2026-11-24T14:00:00.000Z"], // 20:00 → next day 09:00
      // Rhode Island: weekdays 09:00–18:00, Saturday 10:00–17:00, no Sundays or holidays.
      ["2026-11-20T23:00:00Z", "America/New_York", "RI", "2026-11-21T15:00:00.000Z"], // Fri 18:00 → Sat 10:00
      ["2026-11-21T22:00:00Z", "America/New_York", "RI", "2026-11-23T14:00:00.000Z"], // Sat 17:00 → Mon 09:00
      ["2026-11-26T15:00:00Z", "America/New_York", "RI", "2026-11-27T14:00:00.000Z"], // Thanksgiving → Fri 09:00
      ["2026-09-05T22:00:00Z", "America/New_York", "RI", "2026-09-08T13:00:00.000Z"], // Sat before Labor Day → Tue (EDT)
      // Alabama: 08:00–20:00, no Sundays or holidays (CST).
      ["2026-11-22T16:00:00Z", "America/Chicago", "AL", "2026-11-23T14:00:00.000Z"], // Sun 10:00 → Mon 08:00
      ["2026-12-25T16:00:00Z", "America/Chicago", "AL", "2026-12-26T14:00:00.000Z"], // Christmas → Sat 08:00
      // Louisiana and Mississippi: no Sundays; Louisiana no holidays either.
      ["2026-11-22T16:00:00Z", "America/Chicago", "Louisiana", "2026-11-23T14:00:00.000Z"],
      ["2026-11-22T16:00:00Z", "America/Chicago", "MS", "2026-11-23T14:00:00.000Z"],
      ["2026-07-03T16:00:00Z", "America/Chicago", "LA", "2026-07-06T13:00:00.000Z"], // July 4 observed Fri 3rd → Mon (Sat 4th, Sun)
      ["2026-07-03T16:00:00Z", "America/Chicago", "MS", "2026-07-03T16:00:00.000Z"], // no holiday ban in MS
      // Utah: 08:00–21:00, no Sundays or holidays (MST).
      ["2027-01-01T17:00:00Z", "America/Denver", "UT", "2027-01-02T15:00:00.000Z"], // New Year's Day → Sat 08:00
      // A state without its own rule keeps the federal 08:00–21:00 every day, holidays included.
      ["2026-11-26T15:00:00Z", "America/New_York", "NY", "2026-11-26T15:00:00.000Z"],
      ["2026-11-22T13:30:00Z", "America/New_York", "NY", "2026-11-22T13:30:00.000Z"],
    ];
    for (const [now, tz, state, expected] of cases) expect(next(now, tz, state), `${state} ${now}`).toBe(expected);
  });

  it("a banned day across the spring-forward night opens at the first allowed local minute (Texas, Rhode Island)", () => {
    // 2026-03-08 is a Sunday and the spring-forward day: Texas opens at 12:00 CDT (17:00Z), Rhode Island on Monday.
    expect(next("2026-03-08T06:00:00Z", "America/Chicago", "TX")).toBe("2026-03-08T17:00:00.000Z");
    expect(next("2026-03-07T23:30:00Z", "America/New_York", "RI")).toBe("2026-03-09T13:00:00.000Z");
    // Fall back (2026-11-01, a Sunday): Texas 12:00 CST is 18:00Z.
    expect(next("2026-11-01T05:00:00Z", "America/Chicago", "TX")).toBe("2026-11-01T18:00:00.000Z");
  });

  it("computes the federal holidays per year, with their observed days", () => {
    const iso = (y: number) =>
      [...federalHolidays(y)].sort((a, b) => a - b).map((d) => new Date(d).toISOString().slice(0, 10));
    expect(iso(2026)).toEqual([
      "2026-01-01",
      "2026-01-19",
      "2026-02-16",
      "2026-05-25",
      "2026-06-19",
      "2026-07-03",
      "2026-07-04",
      "2026-09-07",
      "2026-10-12",
      "2026-11-11",
      "2026-11-26",
      "2026-12-25",
    ]);
    // 2022: New Year's Day fell on a Saturday (observed Friday 2021-12-31); Christmas on a Sunday (observed Monday 26th).
    expect(iso(2021)).toContain("2021-12-31");
    expect(iso(2022)).toEqual(expect.arrayContaining(["2022-12-25", "2022-12-26", "2022-06-20"]));
  });

  it("every rule names its statute and a review date", () => {
    for (const r of STATE_RULES) {
      expect(r.statute, r.state).toMatch(/\S/);
      expect(r.reviewed, r.state).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(describeRule(r), r.state).toMatch(/\d{2}:\d{2}/);
    }
    expect(describeRule(STATE_RULES.find((r) => r.state === "RI")!)).toBe(
      "Mon–Fri 09:00–18:00 · Sat 10:00–17:00 · Sun none · no federal holidays",
    );
    expect(describeRule(STATE_RULES.find((r) => r.state === "FL")!)).toBe(
      "Every day 08:00–20:00 · at most 3 marketing texts per 24 hours",
    );
  });

  it("uses the most restrictive US window when the time zone is unknown or invalid", () => {
    for (const tz of [null, "Not/AZone", "", "EST5EDT-bogus"]) {
      // Summer: 08:00 HST (18:00Z) opens it; 20:00 EDT (00:00Z) closes it.
      expect(next("2026-06-15T17:00:00Z", tz)).toBe("2026-06-15T18:00:00.000Z");
      expect(next("2026-06-15T23:59:00Z", tz)).toBe("2026-06-15T23:59:00.000Z");
      expect(next("2026-06-16T00:00:00Z", tz)).toBe("2026-06-16T18:00:00.000Z");
      // Winter: 20:00 EST is 01:00Z.
      expect(next("2026-01-15T00:30:00Z", tz)).toBe("2026-01-15T00:30:00.000Z");
      expect(next("2026-01-15T01:00:00Z", tz)).toBe("2026-01-15T18:00:00.000Z");
      // State does not loosen the fallback window.
      expect(next("2026-01-15T01:00:00Z", tz, "CA")).toBe("2026-01-15T18:00:00.000Z");
    }
  });

  it("agrees with every fallback zone individually", () => {
    const t = at("2026-03-08T18:30:00Z");
    expect(isWithinSendWindow(t, null, null)).toBe(FALLBACK_TIME_ZONES.every((z) => isWithinSendWindow(t, z, "FL")));
  });
});

describe("a contact whose state cannot be told (stateForRules → UNPLACED_STATE)", () => {
  it("is judged by every rule at once: the latest opening, the earliest close, no banned day, no holiday, the lowest cap", () => {
    expect(stateForRules(null, null)).toBe(UNPLACED_STATE);
    expect(stateForRules("Texas", null)).toBe("TX");
    expect(stateForRules(null, "33101")).toBe("FL");
    expect(describeRule(UNPLACED_RULE)).toBe(
      "Mon–Fri 09:00–18:00 · Sat 10:00–17:00 · Sun none · no federal holidays · at most 3 marketing texts per 24 hours",
    );
    expect(stateRuleFor(UNPLACED_STATE)).toBe(UNPLACED_RULE);
  });

  it("waits for Monday 09:00 on a Sunday noon and for 09:00 after 18:00, where Florida's rule (the old fallback) would send", () => {
    // Sunday 2026-11-22, 12:00 in New York: Florida allows it, five states ban Sundays.
    expect(next("2026-11-22T17:00:00Z", "America/New_York", "FL")).toBe("2026-11-22T17:00:00.000Z");
    expect(next("2026-11-22T17:00:00Z", "America/New_York", UNPLACED_STATE)).toBe("2026-11-23T14:00:00.000Z");
    // Tuesday 18:30: Rhode Island closed at 18:00.
    expect(next("2026-11-24T23:30:00Z", "America/New_York", UNPLACED_STATE)).toBe("2026-11-25T14:00:00.000Z");
    // Thanksgiving (a federal holiday) waits for Friday.
    expect(next("2026-11-26T15:00:00Z", "America/New_York", UNPLACED_STATE)).toBe("2026-11-27T14:00:00.000Z");
  });
});

describe("nextAllowedSendTime — properties", () => {
  const zones = [
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "America/Phoenix",
    "Pacific/Honolulu",
    "America/Anchorage",
    "Europe/London",
    "Australia/Lord_Howe", // 30-minute DST shift
    "Asia/Kathmandu", // +05:45
    null,
    "Not/AZone",
  ];
  const states = [null, "CA", "FL", "OK", "md", "Washington", "TX", "RI", "Alabama", "UT", "CT", "MS"];
  const instant = fc.date({
    min: new Date("2020-01-01T00:00:00Z"),
    max: new Date("2030-12-31T23:59:59Z"),
    noInvalidDate: true,
  });

  // Reference answer by brute force: scan minute by minute with isWithinSendWindow (5 days: a Saturday evening in
  // Rhode Island before a Monday holiday opens on Tuesday).
  function bruteForce(now: Date, tz: string | null, state: string | null): number {
    if (isWithinSendWindow(now, tz, state)) return now.getTime();
    let t = Math.ceil(now.getTime() / MINUTE) * MINUTE;
    for (let i = 0; i < 5 * 1440; i++, t += MINUTE) if (isWithinSendWindow(new Date(t), tz, state)) return t;
    throw new Error("no allowed minute within 5 days");
  }

  it("returns the earliest allowed instant at or after now (brute-force oracle)", () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...zones), fc.constantFrom(...states), (now, tz, state) => {
        const result = nextAllowedSendTime(now, tz, state);
        expect(result.getTime()).toBeGreaterThanOrEqual(now.getTime());
        expect(isWithinSendWindow(result, tz, state)).toBe(true);
        if (result.getTime() !== now.getTime()) {
          expect(isWithinSendWindow(now, tz, state)).toBe(false);
          expect(result.getTime() % MINUTE).toBe(0);
        }
        expect(result.getTime()).toBe(bruteForce(now, tz, state));
      }),
      { numRuns: 150 },
    );
  });

  it("is idempotent and never earlier for a later now", () => {
    fc.assert(
      fc.property(
        instant,
        fc.integer({ min: 0, max: 3 * 1440 }),
        fc.constantFrom(...zones),
        fc.constantFrom(...states),
        (now, laterMin, tz, state) => {
          const a = nextAllowedSendTime(now, tz, state);
          expect(nextAllowedSendTime(a, tz, state).getTime()).toBe(a.getTime());
          const b = nextAllowedSendTime(new Date(now.getTime() + laterMin * MINUTE), tz, state);
          expect(b.getTime()).toBeGreaterThanOrEqual(a.getTime());
        },
      ),
      { numRuns: 300 },
    );
  });

  // Second Sunday of March and first Sunday of November (US rules since 2007).
  const usTransitionDays = (year: number) =>
    (
      [
        [2, 2],
        [10, 1],
      ] as const
    ).map(([month, nth]) => {
      const firstDow = new Date(Date.UTC(year, month, 1)).getUTCDay();
      return { month, day: 1 + ((7 - firstDow) % 7) + 7 * (nth - 1) };
    });
  const usZones = ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Anchorage"];

  it("matches the brute-force oracle every 15 minutes across the 2026 US DST transition days", () => {
    for (const { month, day } of usTransitionDays(2026)) {
      for (const tz of usZones) {
        // 12:00Z the day before to 12:00Z the day after covers local 02:00 and 21:00 on both sides.
        const from = Date.UTC(2026, month, day - 1, 12);
        for (let t = from; t <= from + 2 * 86_400_000; t += 15 * MINUTE) {
          const now = new Date(t);
          // The day rules' states too, hourly (a five-day brute force per instant is slow).
          for (const state of t % (60 * MINUTE) === 0 ? [null, "TX", "RI"] : [null])
            expect(nextAllowedSendTime(now, tz, state).getTime(), `${tz} ${state} ${now.toISOString()}`).toBe(
              bruteForce(now, tz, state),
            );
        }
      }
    }
  });

  it("every state's rule (and the unplaced contact's) matches the oracle across 2026's DST days and federal holidays", () => {
    const days = [
      ...usTransitionDays(2026).map(({ month, day }) => Date.UTC(2026, month, day)),
      ...federalHolidays(2026),
    ];
    // Every 6 hours from noon UTC the day before: both sides of the day, its night and its opening.
    for (const state of [...STATE_RULES.map((r) => r.state), UNPLACED_STATE])
      for (const day of days)
        for (const tz of ["America/Chicago", "America/Los_Angeles"])
          for (let t = day - 12 * 3_600_000; t <= day + 36 * 3_600_000; t += 6 * 3_600_000) {
            const now = new Date(t);
            expect(nextAllowedSendTime(now, tz, state).getTime(), `${state} ${tz} ${now.toISOString()}`).toBe(
              bruteForce(now, tz, state),
            );
          }
  });

  it("opens at the first allowed minute on every US DST transition day 2020–2030 (hourly sweep)", () => {
    for (let year = 2020; year <= 2030; year++) {
      for (const { month, day } of usTransitionDays(year)) {
        for (const tz of usZones) {
          const from = Date.UTC(year, month, day - 1, 12);
          for (let t = from; t <= from + 2 * 86_400_000; t += 60 * MINUTE) {
            const now = new Date(t);
            const r = nextAllowedSendTime(now, tz, null).getTime();
            const label = `${tz} ${now.toISOString()}`;
            expect(isWithinSendWindow(new Date(r), tz, null), label).toBe(true);
            if (r !== t) {
              // Cheaper than a full scan: the minute before the result must be closed, and the gap under 24h.
              expect(isWithinSendWindow(new Date(r - MINUTE), tz, null), label).toBe(false);
              expect(r - t, label).toBeLessThan(86_400_000);
            }
          }
        }
      }
    }
  });
});

describe("Arizona's Navajo Nation keeps daylight saving time", () => {
  // 2026-07-15 03:30 UTC: 20:30 in Phoenix (MST all year), 21:30 in Window Rock (MDT) — after the 21:00 end.
  const SUMMER_EVENING = new Date("2026-07-15T03:30:00Z");

  it("a summer text at 20:30 Phoenix time is outside the window in Window Rock", () => {
    const windowRock = deriveTimeZone({ state: "AZ", zipCode: "86515", phone: "+19285550123" });
    const phoenix = deriveTimeZone({ state: "AZ", zipCode: "85004", phone: "+16025550123" });
    expect(isWithinSendWindow(SUMMER_EVENING, phoenix, "AZ")).toBe(true);
    expect(isWithinSendWindow(SUMMER_EVENING, windowRock, "AZ")).toBe(false);
    expect(nextAllowedSendTime(SUMMER_EVENING, windowRock, "AZ").toISOString()).toBe("2026-07-15T14:00:00.000Z"); // 08:00 MDT
  });

  it("a broadcast at 20:30 Phoenix time goes to Phoenix and waits until 08:00 for Window Rock", async () => {
    const { deps, twilio, queue } = await pipeline({ clock: () => SUMMER_EVENING });
    const actor = { userId: (await createTestUser()).id, ipAddress: null };
    const windowRock = await createTestContact(actor.userId, {
      state: "AZ",
      zipCode: "86515",
      phone: `+1928871${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`,
    });
    const phoenix = await createTestContact(actor.userId, { state: "AZ", zipCode: "85004" });
    await sendBroadcast(
      { db: deps.db, queue, now: SUMMER_EVENING, hooks: appHooks },
      broadcastSchema.parse({ type: "sms", content: "Solar offer", contactIds: [windowRock.id, phoenix.id] }),
      actor,
    );
    await sendMessages(queue.takeSendJobs(), deps);
    const row = (id: number) =>
      deps.db.get<{ status: string; scheduled_at: number | null }>(
        sql`SELECT status, scheduled_at FROM messages WHERE contact_id = ${id}`,
      );
    expect(await row(phoenix.id)).toMatchObject({ status: "sent" });
    const deferred = await row(windowRock.id);
    expect(deferred?.status).toBe("pending");
    expect(new Date(deferred!.scheduled_at!).toISOString()).toBe("2026-07-15T14:00:00.000Z");
    expect((await twilio.calls()).map((c) => c.to)).toEqual([phoenix.phone]);
  });
});
