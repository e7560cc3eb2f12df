// Quiet hours: marketing SMS may only go out inside the recipient's local calling window.
// Local wall-clock time is read with Intl.DateTimeFormat (no tz library); instants are epoch ms.
import { wallClock, zoneFormatter } from "~/lib/zone-clock";

export interface SendWindow {
  /** Minutes after local midnight; the window is [startMinute, endMinute). */
  startMinute: number;
  endMinute: number;
}

/** Federal TCPA rule, 47 CFR 64.1200(c)(1): no solicitations before 8 a.m. or after 9 p.m. local time. */
export const DEFAULT_WINDOW: SendWindow = { startMinute: 8 * 60, endMinute: 21 * 60 };

/**
 * States whose own statutes end the window at 8 p.m.:
 * - FL: Florida Telephone Solicitation Act (Fla. Stat. §501.059) — 8 a.m. to 8 p.m.
 * - OK: Oklahoma Telephone Solicitation Act of 2022 — 8 a.m. to 8 p.m.
 * - MD: Maryland Stop the Spam Calls Act of 2023 — 8 a.m. to 8 p.m.
 * - WA: Washington RCW 80.36.390 — 8 a.m. to 8 p.m.
 */
export const STRICT_WINDOW: SendWindow = { startMinute: 8 * 60, endMinute: 20 * 60 };
export const STRICT_WINDOW_STATES: ReadonlySet<string> = new Set(["FL", "OK", "MD", "WA"]);

// Contacts' state is free text, so full names of the strict states are accepted too.
const STATE_NAMES: Record<string, string> = { FLORIDA: "FL", OKLAHOMA: "OK", MARYLAND: "MD", WASHINGTON: "WA" };

/**
 * With no usable time zone we cannot know the recipient's clock, so an instant is allowed only when it is
 * inside the strict 08:00–20:00 window in every one of these US zones (the most restrictive reading).
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

function normalizeState(state: string | null): string | null {
  if (!state) return null;
  const s = state.trim().toUpperCase();
  return STATE_NAMES[s] ?? s;
}

export function sendWindowFor(state: string | null): SendWindow {
  const s = normalizeState(state);
  return s && STRICT_WINDOW_STATES.has(s) ? { ...STRICT_WINDOW } : { ...DEFAULT_WINDOW };
}

const MINUTE = 60_000;
export function isValidTimeZone(timeZone: string | null | undefined): timeZone is string {
  return typeof timeZone === "string" && timeZone.trim() !== "" && zoneFormatter(timeZone) !== null;
}

function inWindow(minuteOfDay: number, w: SendWindow): boolean {
  return minuteOfDay >= w.startMinute && minuteOfDay < w.endMinute;
}

/**
 * First allowed instant ≥ ms in one zone: ms itself when allowed, else a whole UTC minute.
 * Between offset changes wall-clock time is linear in real time, so we jump straight to the next local
 * window start; if the UTC offset differs at the target, a DST transition lies in between, so we
 * binary-search the transition minute and re-evaluate from there. This handles the spring-forward gap
 * (the window may open at the transition itself) and the fall-back repeat without scanning minutes.
 */
function nextAllowedInZone(ms: number, f: Intl.DateTimeFormat, w: SendWindow): number {
  let t = ms;
  let here = wallClock(f, t);
  if (inWindow(here.minuteOfDay, w)) return t;
  t = Math.ceil(t / MINUTE) * MINUTE;
  for (let i = 0; i < 32; i++) {
    here = wallClock(f, t);
    if (inWindow(here.minuteOfDay, w)) return t;
    const m = here.minuteOfDay;
    const delta = m < w.startMinute ? w.startMinute - m : 1440 - m + w.startMinute;
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

function resolve(timeZone: string | null, state: string | null): { zones: Intl.DateTimeFormat[]; window: SendWindow } {
  const f = isValidTimeZone(timeZone) ? zoneFormatter(timeZone) : null;
  return f ? { zones: [f], window: sendWindowFor(state) } : { zones: fallbackFormatters(), window: STRICT_WINDOW };
}

export function isWithinSendWindow(now: Date, timeZone: string | null, state: string | null): boolean {
  const { zones, window } = resolve(timeZone, state);
  const ms = now.getTime();
  return zones.every((f) => inWindow(wallClock(f, ms).minuteOfDay, window));
}

/**
 * `now` when it is inside the window; otherwise the first later instant (whole minute) that is.
 * With several zones (unknown time zone) we move to the latest of each zone's next opening until all agree;
 * every allowed instant is ≥ each zone's next opening, so the first agreement is the earliest.
 */
export function nextAllowedSendTime(now: Date, timeZone: string | null, state: string | null): Date {
  const { zones, window } = resolve(timeZone, state);
  const start = now.getTime();
  if (zones.every((f) => inWindow(wallClock(f, start).minuteOfDay, window))) return new Date(start);
  let t = Math.ceil(start / MINUTE) * MINUTE;
  for (let i = 0; i < 64; i++) {
    const next = Math.max(...zones.map((f) => nextAllowedInZone(t, f, window)));
    if (next === t) return new Date(t);
    t = next;
  }
  throw new Error("nextAllowedSendTime: no common send window found"); // unreachable for FALLBACK_TIME_ZONES
}

/** The note on a marketing message that quiet hours deferred (the Message Center explains and, locally, releases it). */
export const QUIET_HOURS_NOTE = "Deferred: outside allowed sending hours in the recipient's time zone";

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
