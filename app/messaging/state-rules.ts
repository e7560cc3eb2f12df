// State calling/texting windows as data (issue 29 item 1, decision 060): one row per state whose own law is stricter
// than the federal 8 a.m.–9 p.m. (47 CFR 64.1200(c)(1)), each with its statute and the date it was last reviewed. The
// quiet-hours search (quiet-hours.ts) reads only this table: a new state is a new row and its tests.

export interface SendWindow {
  /** Minutes after local midnight; the window is [startMinute, endMinute). */
  startMinute: number;
  endMinute: number;
}

export interface StateRule {
  /** USPS code, or "US" for the federal rule every other state follows. */
  state: string;
  name: string;
  /** Monday–Friday. */
  weekday: SendWindow;
  /** null: no marketing texts on that day. */
  saturday: SendWindow | null;
  sunday: SendWindow | null;
  /** No marketing texts on federal holidays (and their observed weekday). */
  noHolidays: boolean;
  /**
   * At most this many marketing texts to one number in any 24 hours (Florida's and Oklahoma's "3 per 24 hours on the
   * same subject matter"; every marketing text of the seller counts as one subject). The send consumer defers the
   * next one until the oldest of them is 24 hours old (marketing-cap.ts).
   */
  per24Hours?: number;
  statute: string;
  reviewed: string;
}

const h = (from: number, to: number): SendWindow => ({ startMinute: from * 60, endMinute: to * 60 });
const REVIEWED = "2026-11-27";
const daily = (w: SendWindow) => ({ weekday: w, saturday: w, sunday: w });

export const FEDERAL_RULE: StateRule = {
  state: "US",
  name: "Federal (TCPA)",
  ...daily(h(8, 21)),
  noHolidays: false,
  statute: "47 CFR 64.1200(c)(1)",
  reviewed: REVIEWED,
};

export const STATE_RULES: readonly StateRule[] = [
  {
    state: "AL",
    name: "Alabama",
    weekday: h(8, 20),
    saturday: h(8, 20),
    sunday: null,
    noHolidays: true,
    statute: "Ala. Admin. Code r. 770-X-5-.16",
    reviewed: REVIEWED,
  },
  {
    state: "CT",
    name: "Connecticut",
    ...daily(h(9, 20)),
    noHolidays: false,
    statute: "Conn. Gen. Stat. §42-288a",
    reviewed: REVIEWED,
  },
  {
    state: "FL",
    name: "Florida",
    ...daily(h(8, 20)),
    noHolidays: false,
    per24Hours: 3,
    statute: "Fla. Stat. §501.059(8)(a)",
    reviewed: REVIEWED,
  },
  {
    state: "LA",
    name: "Louisiana",
    weekday: h(8, 20),
    saturday: h(8, 20),
    sunday: null,
    noHolidays: true,
    statute: "La. R.S. 45:844.17",
    reviewed: REVIEWED,
  },
  {
    state: "MD",
    name: "Maryland",
    ...daily(h(8, 20)),
    noHolidays: false,
    statute: "Md. Code, Com. Law §14-4503",
    reviewed: REVIEWED,
  },
  {
    state: "MS",
    name: "Mississippi",
    weekday: h(8, 20),
    saturday: h(8, 20),
    sunday: null,
    noHolidays: false,
    statute: "Miss. Code Ann. §77-3-725",
    reviewed: REVIEWED,
  },
  {
    state: "OK",
    name: "Oklahoma",
    ...daily(h(8, 20)),
    noHolidays: false,
    per24Hours: 3,
    statute: "Okla. Stat. tit. 15, §775C.4",
    reviewed: REVIEWED,
  },
  {
    state: "RI",
    name: "Rhode Island",
    weekday: h(9, 18),
    saturday: h(10, 17),
    sunday: null,
    noHolidays: true,
    statute: "R.I. Gen. Laws §5-61-3.4",
    reviewed: REVIEWED,
  },
  {
    state: "TX",
    name: "Texas",
    weekday: h(9, 21),
    saturday: h(9, 21),
    sunday: h(12, 21),
    noHolidays: false,
    statute: "Tex. Bus. & Com. Code §301.051",
    reviewed: REVIEWED,
  },
  {
    state: "UT",
    name: "Utah",
    weekday: h(8, 21),
    saturday: h(8, 21),
    sunday: null,
    noHolidays: true,
    statute: "Utah Code §13-25a-103",
    reviewed: REVIEWED,
  },
  {
    state: "WA",
    name: "Washington",
    ...daily(h(8, 20)),
    noHolidays: false,
    statute: "RCW 80.36.390",
    reviewed: REVIEWED,
  },
];

const meet = (windows: (SendWindow | null)[]): SendWindow | null => {
  if (windows.some((w) => w === null)) return null;
  const startMinute = Math.max(...windows.map((w) => w!.startMinute));
  const endMinute = Math.min(...windows.map((w) => w!.endMinute));
  return endMinute > startMinute ? { startMinute, endMinute } : null;
};

/** The code `stateForRules` gives a contact whose state cannot be told from its record or ZIP. */
export const UNPLACED_STATE = "??";

/**
 * A contact whose state cannot be told: every rule of the table at once — the latest opening and earliest close of each
 * day, no day any state bans, no federal holiday, the lowest cap — so no state's law can be broken by not knowing it.
 */
export const UNPLACED_RULE: StateRule = (() => {
  const all = [FEDERAL_RULE, ...STATE_RULES];
  const caps = all.flatMap((r) => (r.per24Hours ? [r.per24Hours] : []));
  return {
    state: UNPLACED_STATE,
    name: "State unknown",
    weekday: meet(all.map((r) => r.weekday)) ?? h(9, 18),
    saturday: meet(all.map((r) => r.saturday)),
    sunday: meet(all.map((r) => r.sunday)),
    noHolidays: all.some((r) => r.noHolidays),
    ...(caps.length ? { per24Hours: Math.min(...caps) } : {}),
    statute: "every rule above at once",
    reviewed: REVIEWED,
  };
})();

const BY_STATE = new Map([...STATE_RULES, UNPLACED_RULE].map((r) => [r.state, r]));

/** The rule for a USPS code (already normalised); the federal rule for any other state or none. */
export function ruleFor(state: string | null): StateRule {
  return (state && BY_STATE.get(state)) || FEDERAL_RULE;
}

const clamp = (w: SendWindow | null, limit: SendWindow): SendWindow | null => {
  if (!w) return null;
  const startMinute = Math.max(w.startMinute, limit.startMinute);
  const endMinute = Math.min(w.endMinute, limit.endMinute);
  return endMinute > startMinute ? { startMinute, endMinute } : null;
};

/** The rule narrowed to a window (an unknown time zone reads every US zone within 08:00–20:00). */
export function narrowed(rule: StateRule, limit: SendWindow): StateRule {
  return {
    ...rule,
    weekday: clamp(rule.weekday, limit) ?? limit,
    saturday: clamp(rule.saturday, limit),
    sunday: clamp(rule.sunday, limit),
  };
}

// Federal holidays (5 U.S.C. §6103), computed per year; a holiday on a Saturday is observed the Friday before, on a
// Sunday the Monday after — both days count as the holiday for a ban (the stricter reading).
const nthWeekday = (year: number, month: number, weekday: number, n: number) => {
  const first = new Date(Date.UTC(year, month, 1)).getUTCDay();
  return Date.UTC(year, month, 1 + ((weekday - first + 7) % 7) + (n - 1) * 7);
};
const lastWeekday = (year: number, month: number, weekday: number) => {
  const last = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, last.getUTCDate() - ((last.getUTCDay() - weekday + 7) % 7));
};
const DAY = 86_400_000;
const holidayCache = new Map<number, ReadonlySet<number>>();

/** The federal holidays of a year and their observed days, as UTC midnights of the local dates. */
export function federalHolidays(year: number): ReadonlySet<number> {
  let set = holidayCache.get(year);
  if (set) return set;
  const fixed = [
    Date.UTC(year, 0, 1),
    Date.UTC(year, 5, 19),
    Date.UTC(year, 6, 4),
    Date.UTC(year, 10, 11),
    Date.UTC(year, 11, 25),
  ];
  const days = [
    ...fixed,
    nthWeekday(year, 0, 1, 3), // Martin Luther King Jr. Day
    nthWeekday(year, 1, 1, 3), // Washington's Birthday
    lastWeekday(year, 4, 1), // Memorial Day
    nthWeekday(year, 8, 1, 1), // Labor Day
    nthWeekday(year, 9, 1, 2), // Columbus Day
    nthWeekday(year, 10, 4, 4), // Thanksgiving
  ];
  for (const d of fixed) {
    const wd = new Date(d).getUTCDay();
    if (wd === 6) days.push(d - DAY);
    if (wd === 0) days.push(d + DAY);
  }
  // New Year's Day on a Saturday is observed on December 31 of the year before.
  if (new Date(Date.UTC(year + 1, 0, 1)).getUTCDay() === 6) days.push(Date.UTC(year, 11, 31));
  set = new Set(days);
  holidayCache.set(year, set);
  return set;
}

/** The window on a local date (`localDay`: its UTC midnight, `weekday` 0 = Sunday), or null when none. */
export function windowOn(rule: StateRule, localDay: number, weekday: number): SendWindow | null {
  if (rule.noHolidays && federalHolidays(new Date(localDay).getUTCFullYear()).has(localDay)) return null;
  return weekday === 0 ? rule.sunday : weekday === 6 ? rule.saturday : rule.weekday;
}

/** "Mon–Fri 09:00–18:00 · Sat 10:00–17:00 · Sun none · no federal holidays": the rule in words, for screens. */
export function describeRule(rule: StateRule): string {
  const hm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
  const w = (x: SendWindow | null) => (x ? `${hm(x.startMinute)}–${hm(x.endMinute)}` : "none");
  const parts =
    w(rule.weekday) === w(rule.saturday) && w(rule.saturday) === w(rule.sunday)
      ? [`Every day ${w(rule.weekday)}`]
      : [`Mon–Fri ${w(rule.weekday)}`, `Sat ${w(rule.saturday)}`, `Sun ${w(rule.sunday)}`];
  if (rule.noHolidays) parts.push("no federal holidays");
  if (rule.per24Hours) parts.push(`at most ${rule.per24Hours} marketing texts per 24 hours`);
  return parts.join(" · ");
}
