import { z } from "zod";
import { AppError } from "~/lib/app-error";
import { assertNoLinkShortener } from "~/messaging/link-shorteners";

// SPEC §5 / §8 / §9.
export const RESPONDER_REQUIRED = "Please fill in name, keywords, and primary response.";
export const RESPONDER_NOT_FOUND = "Auto-responder not found";
export const RESPONDER_TOASTS = {
  create: "Failed to create auto-responder",
  update: "Failed to update auto-responder",
  delete: "Failed to delete auto-responder",
} as const;

export const RESPONDER_CATEGORIES = [
  "solar_inquiry",
  "pricing_request",
  "support_ticket",
  "appointment_booking",
  "general_inquiry",
] as const;
export const TRIGGER_TYPES = [
  "keyword_match",
  "sentiment_analysis",
  "intent_detection",
  "time_based",
  "smart_matching",
] as const;
export const SENTIMENTS = ["any", "positive", "neutral", "negative"] as const;
export const TIME_RESTRICTIONS = ["any", "business_hours", "after_hours", "weekends"] as const;
/** Not enumerated by the SPEC: any number, a first-time texter only, or one who has written before. */
export const PREVIOUS_INTERACTIONS = ["any", "first_contact", "returning"] as const;
export const RESPONSE_STYLES = ["professional", "friendly", "casual", "technical", "empathetic"] as const;
export const TIMEZONES = ["America/Los_Angeles", "America/Denver", "America/Chicago", "America/New_York"] as const;
export const TIMEZONE_LABELS: Record<(typeof TIMEZONES)[number], string> = {
  "America/Los_Angeles": "Pacific",
  "America/Denver": "Mountain",
  "America/Chicago": "Central",
  "America/New_York": "Eastern",
};

const flag = z.preprocess(
  (v) =>
    v === "on" || v === "true" || v === "1"
      ? true
      : v === "false" || v === "" || v === "0" || v === undefined
        ? false
        : v,
  z.boolean(),
);
const int = (min: number, max: number, label: string) =>
  z.coerce
    .number({ invalid_type_error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be between ${min} and ${max}`)
    .max(max, `${label} must be between ${min} and ${max}`);

/** Trimmed, de-duplicated (case-insensitively), blanks dropped. Accepts a list or comma/newline separated text. */
export function cleanList(v: unknown): string[] {
  const items = Array.isArray(v) ? v : typeof v === "string" ? v.split(/[,\n]/) : [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of items) {
    if (typeof raw !== "string") continue;
    const s = raw.trim();
    if (!s || seen.has(s.toLowerCase())) continue;
    seen.add(s.toLowerCase());
    out.push(s);
  }
  return out;
}

const email = z
  .string()
  .max(254, "Alert emails must be valid email addresses")
  .email("Alert emails must be valid email addresses");

export const responderSchema = z.object({
  name: z.string().trim().max(120, "Name must be at most 120 characters"),
  keyword: z.string().trim().max(120).optional(),
  category: z.enum(RESPONDER_CATEGORIES).default("solar_inquiry"),
  triggerType: z.enum(TRIGGER_TYPES).default("keyword_match"),
  keywords: z.preprocess(
    cleanList,
    z.array(z.string().max(80, "Keywords must be at most 80 characters")).max(50, "At most 50 keywords"),
  ),
  isActive: flag.default(true),
  conditions: z
    .object({
      sentiment: z.enum(SENTIMENTS).default("any"),
      confidence: int(0, 100, "Confidence").default(70),
      timeOfDay: z.enum(TIME_RESTRICTIONS).default("any"),
      // SPEC §3 leaves the type open and API clients send a count: 0 means no condition, 1 or more "returning".
      previousInteractions: z
        .preprocess((v) => {
          const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
          return Number.isInteger(n) && n >= 0 ? (n >= 1 ? "returning" : "any") : v;
        }, z.enum(PREVIOUS_INTERACTIONS))
        .default("any"),
    })
    .default({}),
  aiSettings: z
    .object({
      useAI: flag.default(false),
      responseStyle: z.enum(RESPONSE_STYLES).default("professional"),
      personalization: flag.default(true),
      contextAware: flag.default(true),
      maxLength: int(50, 500, "Max length").default(160),
    })
    .default({}),
  responses: z
    .object({
      primary: z.string().trim().max(1600, "Responses must be at most 1600 characters").default(""),
      followUp: z.string().trim().max(1600, "Responses must be at most 1600 characters").default(""),
      escalation: z.string().trim().max(1600, "Responses must be at most 1600 characters").default(""),
    })
    .default({}),
  escalation: z
    .object({
      enabled: flag.default(true),
      threshold: int(1, 10, "Escalation threshold").default(3),
      delay: int(0, 1440, "Escalation delay").default(30),
      alertEmails: z.preprocess(cleanList, z.array(email).max(20, "At most 20 alert emails")).default([]),
    })
    .default({}),
  scheduling: z
    .object({
      /** On: the responder answers only within business hours (Mon–Fri 09:00–17:00 in `timezone`). */
      businessHours: flag.default(false),
      timezone: z.enum(TIMEZONES).default("America/Los_Angeles"),
      delays: z
        .object({
          immediate: int(0, 60, "Immediate delay").default(0),
          followUp: int(1, 1440, "Follow-up delay").default(5),
          escalation: int(0, 1440, "Escalation delay").default(30),
        })
        .default({}),
    })
    .default({}),
  analytics: z
    .object({
      trackEngagement: flag.default(true),
      trackConversions: flag.default(true),
      abTestEnabled: flag.default(false),
    })
    .default({}),
});
export type ResponderInput = z.infer<typeof responderSchema>;

function firstIssue(err: z.ZodError) {
  const issue = err.issues[0];
  return { message: issue.message, field: issue.path.join(".") };
}

/** The full responder (create): SPEC defaults fill what is left out; name, keywords and primary response required. */
export function parseResponder(body: unknown): ResponderInput {
  const parsed = responderSchema.safeParse(body ?? {});
  if (!parsed.success) {
    const { message, field } = firstIssue(parsed.error);
    throw new AppError("validation", message, { field });
  }
  const r = parsed.data;
  if (!r.name || r.keywords.length === 0 || !r.responses.primary) throw new AppError("validation", RESPONDER_REQUIRED);
  // Auto-replies are texts: a public shortener in one would be filtered by carriers (issue 29).
  assertNoLinkShortener("sms", r.responses.primary, r.responses.followUp, r.responses.escalation);
  return r;
}

/** Default values for a new responder's form. */
export const DEFAULT_RESPONDER: ResponderInput = responderSchema.parse({ name: "", keywords: [] });
