// Quiet hours: marketing SMS may only go out inside the recipient's local calling window, which is the state's rule
// (state-rules.ts: windows per day, Sunday and holiday bans) or the federal one.
// Local wall-clock time is read with Intl.DateTimeFormat (no tz library); instants are epoch ms.
import { normalizeState, stateForZip } from "~/contacts/us-geo";
import { wallClock, zoneFormatter, type WallClock } from "~/lib/zone-clock";
import { narrowed, ruleFor, UNPLACED_STATE, windowOn, type SendWindow, type StateRule } from "./state-rules";

/** 08:00–20:00: the window every state's rule is read within when the recipient's time zone is unknown. */
export const STRICT_WINDOW: SendWindow = { startMinute: 8 * 60, endMinute: 20 * 60 };

/**
 * With no usable time zone we cannot know the recipient's clock, so an instant is allowed only when it is
 * inside the strict 08:00–20:00 window (and the state's day rules) in every one of these US zones.
 */
export const FALLBACK_TIME_ZONES = [
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Phoenix",
  "America/Los_Angeles",
  "America/Anchorage",
  "Pacific/Honolulu",
] as const;

/**
 * What a contact that cannot be placed is judged by: every state's rules at once (UNPLACED_RULE) — no single state's
 * are the strictest (Rhode Island closes at 18:00, five states ban Sundays, Florida and Oklahoma cap the day).
 */
export const STRICTEST_STATE = UNPLACED_STATE;

/**
 * The state whose rules apply to a contact: its own (a code or a full name, any case), else its ZIP's; one that
 * cannot be told gets the strictest. The send consumer and the pre-send check both judge by it.
 */
export const stateForRules = (state: string | null, zipCode: string | null): string =>
  normalizeState(state) ?? stateForZip(zipCode) ?? STRICTEST_STATE;

/**
 * The rule of a contact's state as typed (a code or a full name, any case), or of UNPLACED_STATE (stateForRules' answer
 * for a contact that cannot be placed); the federal rule for no state at all.
 */
export function stateRuleFor(state: string | null): StateRule {
  return state === UNPLACED_STATE ? ruleFor(UNPLACED_STATE) : ruleFor(normalizeState(state));
}

const MINUTE = 60_000;
export function isValidTimeZone(timeZone: string | null | undefined): timeZone is string {
  return typeof timeZone === "string" && timeZone.trim() !== "" && zoneFormatter(timeZone) !== null;
}

function inWindow(minuteOfDay: number, w: SendWindow): boolean {
  return minuteOfDay >= w.startMinute && minuteOfDay < w.endMinute;
}

const windowAt = (rule: StateRule, c: WallClock) => windowOn(rule, c.localDay, c.weekday);
const allowedAt = (rule: StateRule, c: WallClock) => {
  const w = windowAt(rule, c);
  return w !== null && inWindow(c.minuteOfDay, w);
};

/**
 * First allowed instant ≥ ms in one zone: ms itself when allowed, else a whole UTC minute.
 * Between offset changes wall-clock time is linear in real time, so we jump straight to the next local
 * window start (today's, or midnight when today has none left, to read the next day's); if the UTC offset
 * differs at the target, a DST transition lies in between, so we binary-search the transition minute and
 * re-evaluate from there. This handles the spring-forward gap (the window may open at the transition
 * itself) and the fall-back repeat without scanning minutes.
 */
function nextAllowedInZone(ms: number, f: Intl.DateTimeFormat, rule: StateRule): number {
  let t = ms;
  let here = wallClock(f, t);
  if (allowedAt(rule, here)) return t;
  t = Math.ceil(t / MINUTE) * MINUTE;
  // A long weekend with a holiday is at most ~4 days: two steps a day.
  for (let i = 0; i < 64; i++) {
    here = wallClock(f, t);
    const w = windowAt(rule, here);
    if (w && inWindow(here.minuteOfDay, w)) return t;
    const m = here.minuteOfDay;
    const delta = w && m < w.startMinute ? w.startMinute - m : 1440 - m;
    const target = t + delta * MINUTE;
    if (wallClock(f, target).offset === here.offset) {
      t = target;
      continue;
    }
    // Offset changes in (t, target]: find the first minute with the new offset.
    let lo = t / MINUTE;
    let hi = target / MINUTE;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (wallClock(f, mid * MINUTE).offset === here.offset) lo = mid;
      else hi = mid;
    }
    t = hi * MINUTE;
  }
  throw new Error("nextAllowedSendTime: no send window found"); // unreachable for real zones
}

function fallbackFormatters(): Intl.DateTimeFormat[] {
  return FALLBACK_TIME_ZONES.map((z) => zoneFormatter(z)!);
}

function resolve(timeZone: string | null, state: string | null): { zones: Intl.DateTimeFormat[]; rule: StateRule } {
  const f = isValidTimeZone(timeZone) ? zoneFormatter(timeZone) : null;
  const rule = stateRuleFor(state);
  return f ? { zones: [f], rule } : { zones: fallbackFormatters(), rule: narrowed(rule, STRICT_WINDOW) };
}

export function isWithinSendWindow(now: Date, timeZone: string | null, state: string | null): boolean {
  const { zones, rule } = resolve(timeZone, state);
  const ms = now.getTime();
  return zones.every((f) => allowedAt(rule, wallClock(f, ms)));
}

/**
 * `now` when it is inside the window; otherwise the first later instant (whole minute) that is.
 * With several zones (unknown time zone) we move to the latest of each zone's next opening until all agree;
 * every allowed instant is ≥ each zone's next opening, so the first agreement is the earliest.
 */
export function nextAllowedSendTime(now: Date, timeZone: string | null, state: string | null): Date {
  const { zones, rule } = resolve(timeZone, state);
  const start = now.getTime();
  if (zones.every((f) => allowedAt(rule, wallClock(f, start)))) return new Date(start);
  let t = Math.ceil(start / MINUTE) * MINUTE;
  for (let i = 0; i < 64; i++) {
    const next = Math.max(...zones.map((f) => nextAllowedInZone(t, f, rule)));
    if (next === t) return new Date(t);
    t = next;
  }
  throw new Error("nextAllowedSendTime: no common send window found"); // unreachable for FALLBACK_TIME_ZONES
}

/**
 * nextAllowedSendTime for many messages at once (a send batch), each (zone, state, UTC minute) worked out once:
 * windows open and close on whole local minutes and UTC offsets are whole minutes, so whether an instant is
 * allowed — and, when not, the next allowed minute — is the same through a whole UTC minute. A batch of 100 texts
 * to one area asked the Intl clock ~300 times for one answer (decision 080).
 */
export function nextAllowedSendTimes(): (at: Date, timeZone: string | null, state: string | null) => Date {
  const known = new Map<string, number | "allowed">();
  return (at, timeZone, state) => {
    const ms = at.getTime();
    const key = `${Math.floor(ms / MINUTE)}\u0000${timeZone}\u0000${state}`;
    let answer = known.get(key);
    if (answer === undefined) {
      const next = nextAllowedSendTime(at, timeZone, state).getTime();
      answer = next === ms ? "allowed" : next;
      known.set(key, answer);
    }
    return new Date(answer === "allowed" ? ms : answer);
  };
}

/**
 * The start of the note on a marketing message that quiet hours deferred (the Message Center explains and, locally,
 * releases it; the compliance trigger of migration 0068 counts it by this prefix).
 */
export const QUIET_HOURS_NOTE = "Deferred: outside allowed sending hours in the recipient's time zone";

/** The note with the rule that held the message (decision 060): "… (Texas: Tex. Bus. & Com. Code §301.051)". */
export function quietHoursNote(state: string | null): string {
  const rule = stateRuleFor(state);
  return `${QUIET_HOURS_NOTE} (${rule.name}: ${rule.statute})`;
}

const US_MAINLAND = [
  { zone: "America/New_York", label: "New York" },
  { zone: "America/Chicago", label: "Chicago" },
  { zone: "America/Denver", label: "Denver" },
  { zone: "America/Los_Angeles", label: "Los Angeles" },
] as const;

/**
 * Where in the mainland US it is quiet hours now (the default 08:00–21:00 window), with the local time: the
 * Message Center's explanation of why marketing texts are waiting. Empty when it is daytime everywhere.
 */
export function quietZonesNow(now: Date): { label: string; localTime: string }[] {
  return US_MAINLAND.filter((z) => !isWithinSendWindow(now, z.zone, null)).map((z) => ({
    label: z.label,
    localTime: new Intl.DateTimeFormat("en-US", { timeZone: z.zone, hour: "numeric", minute: "2-digit" }).format(now),
  }));
}
