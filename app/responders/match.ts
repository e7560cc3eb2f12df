/**
 * Pure matching rules shared by the responder and alert engines: whole-word keyword matching (any case,
 * punctuation ignored) and time-of-day windows in a responder's time zone.
 */

/** Lower-case words: letters, digits and inner apostrophes kept; every other character separates words. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[’‘]/g, "'")
    .split(/[^a-z0-9']+/)
    .map((w) => w.replace(/^'+|'+$/g, ""))
    .filter(Boolean);
}

/** Words that turn the next words around: "not interested", "no longer interested", "don't want". */
const NEGATIONS = new Set([
  "not",
  "no",
  "never",
  "dont",
  "don't",
  "doesnt",
  "doesn't",
  "isnt",
  "isn't",
  "arent",
  "aren't",
  "wont",
  "won't",
  "wouldnt",
  "wouldn't",
  "cant",
  "can't",
  "nope",
  "nor",
  "without",
]);
/** How many words before a keyword a negation still reaches ("not really interested", "no longer interested"). */
const NEGATION_REACH = 2;

/**
 * The keywords found in `text` as whole words or whole phrases ("solar" matches "Solar!" but not "solaris";
 * "how much" matches "How much?"), unless a negation stands just before it: "not interested, I rent" does not
 * match "interested" (issue 24: it raised a high-priority hot-lead alert), while a keyword that is itself negative
 * ("not interested") still matches. Order of `keywords` kept.
 */
export function matchKeywords(text: string, keywords: readonly string[]): string[] {
  const ws = words(text);
  return keywords.filter((k) => {
    const phrase = words(k);
    if (!phrase.length) return false;
    for (let i = 0; i + phrase.length <= ws.length; i++) {
      if (!phrase.every((w, j) => ws[i + j] === w)) continue;
      const before = ws.slice(Math.max(0, i - NEGATION_REACH), i);
      if (!before.some((w) => NEGATIONS.has(w))) return true;
    }
    return false;
  });
}

export type TimeRestriction = "any" | "business_hours" | "after_hours" | "weekends";
/** Business hours: Monday–Friday, 09:00–17:00 in the responder's zone. */
export const BUSINESS_START_HOUR = 9;
export const BUSINESS_END_HOUR = 17;

/** Weekday (0 = Sunday) and hour of `at` in `timeZone`. */
export function localDayHour(at: Date, timeZone: string): { day: number; hour: number } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "short",
    hour: "numeric",
    hourCycle: "h23",
  }).formatToParts(at);
  const wd = parts.find((p) => p.type === "weekday")?.value ?? "Sun";
  const hour = Number(parts.find((p) => p.type === "hour")?.value ?? 0) % 24;
  return { day: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(wd), hour };
}

export function isBusinessHours(at: Date, timeZone: string): boolean {
  const { day, hour } = localDayHour(at, timeZone);
  return day >= 1 && day <= 5 && hour >= BUSINESS_START_HOUR && hour < BUSINESS_END_HOUR;
}

export function timeAllows(restriction: string, at: Date, timeZone: string): boolean {
  switch (restriction) {
    case "business_hours":
      return isBusinessHours(at, timeZone);
    case "after_hours":
      return !isBusinessHours(at, timeZone);
    case "weekends": {
      const { day } = localDayHour(at, timeZone);
      return day === 0 || day === 6;
    }
    default:
      return true;
  }
}
