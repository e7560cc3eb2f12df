import { settingValue } from "~/lib/setting-value";

/**
 * The caps on Helio's automatic channels (issue 23, decision 021): what each limits, its window and its default.
 * Every cap is one fixed-window counter in `cap_counters` (hit-cap.server.ts); the limits are organisation settings
 * (`cap.<name>` rows in org_settings, edited on the Organisation screen), the defaults below when unset.
 */
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export const CAP_NAMES = [
  "autoReplyPerResponder",
  "autoReplyPerNumberDay",
  "alertEmailPerConversation",
  "aiClassifyPerNumber",
  "aiDailyBudget",
  "testSendPerUser",
  "testAlertPerUser",
  "pushPerUser",
  "alertSmsPerUser",
  "lineTypeLookupsPerDay",
] as const;
export type CapName = (typeof CAP_NAMES)[number];
export type CapLimits = Record<CapName, number>;

export type CapDefinition = { label: string; hint: string; windowMs: number; defaultLimit: number; max: number };

export const CAPS: Record<CapName, CapDefinition> = {
  autoReplyPerResponder: {
    label: "Auto-replies per number, per responder, per 12 hours",
    hint: "Text-Em-All caps away replies at 1 per contact per 12 h; more answers to the same number feed reply loops",
    windowMs: 12 * HOUR,
    defaultLimit: 1,
    max: 50,
  },
  autoReplyPerNumberDay: {
    label: "Auto-replies per number per day (all responders and keyword banks)",
    hint: "Automatic texts one number can get in a day, whoever answers",
    windowMs: DAY,
    defaultLimit: 3,
    max: 100,
  },
  alertEmailPerConversation: {
    label: "Escalation and alert emails per conversation per hour",
    hint: "Per conversation and per responder or recipient; the alert itself is still recorded in the bell",
    windowMs: HOUR,
    defaultLimit: 1,
    max: 60,
  },
  aiClassifyPerNumber: {
    label: "AI classifications per number per hour",
    hint: "Past it, replies from that number are classified by the keyword classifier (no model call)",
    windowMs: HOUR,
    defaultLimit: 5,
    max: 1000,
  },
  aiDailyBudget: {
    label: "AI model calls per day (whole organisation)",
    hint: "Past it, drafts and classifications come from the offline composer until midnight UTC",
    windowMs: DAY,
    defaultLimit: 2000,
    max: 1_000_000,
  },
  testSendPerUser: {
    label: "Test sends per user per hour",
    hint: "Test SMS and emails go only to team members' own numbers and addresses",
    windowMs: HOUR,
    defaultLimit: 10,
    max: 1000,
  },
  testAlertPerUser: {
    label: "Test alerts per user per hour",
    hint: "Each test alert may call the AI classifier and emails the sales address",
    windowMs: HOUR,
    defaultLimit: 5,
    max: 1000,
  },
  pushPerUser: {
    label: "Push notifications per user per hour",
    hint: "Hot-lead alerts and replies pushed to a rep's phones; past it they wait in the bell and the inbox",
    windowMs: HOUR,
    defaultLimit: 20,
    max: 1000,
  },
  alertSmsPerUser: {
    label: "Hot-lead alert texts per user per hour",
    hint: "The SMS sent to a rep's own phone when a hot lead comes in and the rep has no phone set up for push",
    windowMs: HOUR,
    defaultLimit: 3,
    max: 100,
  },
  lineTypeLookupsPerDay: {
    label: "Line-type lookups per day (Twilio Lookup)",
    hint: "Each contact's number is looked up once, newest first (about $0.008 each); landlines are marked not sendable. 0 turns lookups off",
    windowMs: DAY,
    defaultLimit: 0,
    max: 100_000,
  },
};

export const DEFAULT_CAP_LIMITS: CapLimits = Object.fromEntries(
  CAP_NAMES.map((n) => [n, CAPS[n].defaultLimit]),
) as CapLimits;

export const capSettingKey = (name: CapName) => `cap.${name}`;
export const CAP_SETTING_KEYS = CAP_NAMES.map(capSettingKey);

/** The stored limits (whole numbers from 0 to the cap's max; 0 switches the channel off), defaults for the rest. */
export function capLimitsFrom(rows: readonly { key: string; value: string }[]): CapLimits {
  const out = { ...DEFAULT_CAP_LIMITS };
  for (const name of CAP_NAMES) {
    const raw = settingValue(rows, capSettingKey(name));
    const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (Number.isInteger(n) && n >= 0 && n <= CAPS[name].max) out[name] = n;
  }
  return out;
}

/**
 * What was held, by whom it is shown: the tallies ("held:<what>", subject "org", per UTC day) the screens read, and
 * the activity log's action for it.
 */
export const HELD = {
  /** Auto-replies the loop guard held: a per-number cap, or a text that looks like an auto-reply (Auto Responder). */
  autoReply: "auto_reply",
  /** Escalation and alert emails over the per-conversation cap (Smart Alerts). */
  alertEmail: "alert_email",
  /** Classifications done offline because the number's hourly AI allowance was spent (AI analytics). */
  aiClassify: "ai_classify",
  /** Model calls not made because the organisation's daily budget was spent (AI analytics, Organisation). */
  aiBudget: "ai_budget",
  /** AI drafts refused by the draft rules (a contact detail nobody wrote): the written answer went instead. */
  aiDraft: "ai_draft",
  /** Test sends refused by the hourly cap (Testing). */
  testSend: "test_send",
  /** Test alerts refused by the hourly cap (Test Smart Alerts). */
  testAlert: "test_alert",
  /** Push notifications and hot-lead alert texts to a rep over their hourly caps (Organisation). */
  push: "push",
} as const;
export type HeldKind = (typeof HELD)[keyof typeof HELD];

/** The start of the fixed window holding `at` (windows are aligned to the epoch, so a day is a UTC day). */
export const windowStart = (at: number, windowMs: number) => Math.floor(at / windowMs) * windowMs;
