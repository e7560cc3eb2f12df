import { settingValue } from "~/lib/setting-value";

// The deliverability autopilot's rule (decision 065): when carriers filter a sending number's texts, more texts from
// it make the number's reputation worse and can get it blocked outright. Past a threshold in one UTC day (the day the
// daily cap counts), the number's marketing pauses until a superuser has looked and resumes it.

/**
 * Twilio's codes for a text a carrier or the registry refused to carry — about the sender, not the recipient:
 * 30007 filtered as spam or a carrier violation, 30032 an unverified toll-free number, 30034 a 10DLC number with no
 * registered campaign. Migration 0071's partial index spells the same list; a test holds them equal.
 */
export const FILTERING_CODES = ["30007", "30032", "30034"] as const;

export const FILTERING_CODE_LABEL: Record<(typeof FILTERING_CODES)[number], string> = {
  "30007": "filtered by the carrier",
  "30032": "toll-free number not verified",
  "30034": "10DLC number not registered",
};

/** At least this many filtered texts in a day… */
export const PAUSE_AT_FILTERED = 10;
/** …and at least this share of the texts the number sent that day (2%: carriers start blocking well below 5%). */
export const PAUSE_AT_SHARE = 0.02;

/**
 * The organisation's thresholds (Compliance → Sending numbers; decision 065's addendum): `filtered` texts in a day
 * (0 = never pause) and `percent` of the day's texts. Stored as org settings; the defaults above when unset.
 */
export type PauseThreshold = { filtered: number; percent: number };
export const DEFAULT_PAUSE_THRESHOLD: PauseThreshold = { filtered: PAUSE_AT_FILTERED, percent: PAUSE_AT_SHARE * 100 };
export const PAUSE_FILTERED_KEY = "autopilotPauseAtFiltered";
export const PAUSE_PERCENT_KEY = "autopilotPauseAtPercent";
export const MAX_PAUSE_FILTERED = 10_000;
export const PAUSE_FILTERED_MESSAGE = `Filtered texts: a whole number from 0 (never pause) to ${MAX_PAUSE_FILTERED}`;
export const PAUSE_PERCENT_MESSAGE = "Share of the day's texts: a percentage from 0 to 100, e.g. 2 or 0.5";

export function pauseThresholdFrom(rows: readonly { key: string; value: string }[]): PauseThreshold {
  const value = (key: string) => settingValue(rows, key);
  const filtered = /^\d+$/.test(value(PAUSE_FILTERED_KEY)) ? Number(value(PAUSE_FILTERED_KEY)) : NaN;
  const percent = /^\d+(\.\d+)?$/.test(value(PAUSE_PERCENT_KEY)) ? Number(value(PAUSE_PERCENT_KEY)) : NaN;
  return {
    filtered: filtered >= 0 && filtered <= MAX_PAUSE_FILTERED ? filtered : DEFAULT_PAUSE_THRESHOLD.filtered,
    percent: percent >= 0 && percent <= 100 ? percent : DEFAULT_PAUSE_THRESHOLD.percent,
  };
}

/**
 * How many filtered texts today pause a number that sent `sentToday` texts today (the most the count must read);
 * null when the organisation turned pausing off.
 */
export const filteredToPause = (sentToday: number, t: PauseThreshold = DEFAULT_PAUSE_THRESHOLD) =>
  t.filtered === 0 ? null : Math.max(t.filtered, Math.ceil((t.percent / 100) * sentToday));

/** The reason stored on the pacing row and shown on Compliance. */
export const pauseReason = (sender: string, filtered: number, sentToday: number) =>
  `Carriers filtered ${filtered} of the ${Math.max(sentToday, filtered)} texts ${sender} sent today ` +
  `(Twilio ${FILTERING_CODES.join(", ")}); its marketing is paused. Check the message content, opt-in and ` +
  `registration, then resume it.`;
