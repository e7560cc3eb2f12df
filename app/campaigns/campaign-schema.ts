import type { PictureAttachment } from "~/db/schema";
import { COMPUTED_FIELD_VARIABLES } from "~/contacts/custom-fields";
import { z } from "zod";
import { extractVariables, findUnknownVariables } from "~/messaging/render";
import { assertNoLinkShortener } from "~/messaging/link-shorteners";
import { AppError } from "~/lib/app-error";
import { parseClock } from "./send-window";
import { isOneLine, SUBJECT_CONTROL_CHARS } from "~/lib/header-text";
import { formatCount } from "~/lib/format-count";

// SPEC §5 / §8 texts.
export const CAMPAIGN_NAME_REQUIRED = "Please enter a campaign name";
export const STEP_FIELDS_REQUIRED = "Please fill in all required fields";
export const CAMPAIGN_NOT_FOUND = "Campaign not found";
export const STEP_NOT_FOUND = "Step not found";
export const TOASTS = {
  create: "Error creating campaign",
  addStep: "Error adding step",
  updateStep: "Error updating step",
  deleteStep: "Error deleting step",
  start: "Error starting campaign",
  pause: "Error pausing campaign",
} as const;

/** Picked contacts per request; larger audiences are "all contacts matching" (enrolled in chunks at start). */
export const MAX_PICKED_CONTACTS = 10_000;
const MAX_CONTENT = 5000;

const blankToUndefined = (v: unknown) => ((typeof v === "string" && v.trim() === "") || v === null ? undefined : v);
const optionalText = (max: number) =>
  z.preprocess(blankToUndefined, z.string().trim().max(max, `Must be at most ${max} characters`).optional());
const optionalDate = z.preprocess(
  blankToUndefined,
  z
    .union([z.date(), z.string(), z.number()])
    .transform((v, ctx) => {
      const d = v instanceof Date ? v : new Date(v);
      if (Number.isNaN(d.getTime())) {
        ctx.addIssue({ code: "custom", message: "Please enter a valid date and time" });
        return z.NEVER;
      }
      return d;
    })
    .optional(),
);
const contactIds = z
  .array(z.coerce.number().int().positive("Contact ids must be positive integers"), {
    invalid_type_error: "contactIds must be a list of contact ids",
  })
  .max(MAX_PICKED_CONTACTS, `Pick at most ${formatCount(MAX_PICKED_CONTACTS)} contacts, or use "select all matching"`);
const bool = z.preprocess(
  (v) => (v === "on" || v === "true" ? true : v === "false" || v === "" ? false : v),
  z.boolean(),
);

/** "YYYY-MM-DD" (a calendar date, shown as "December 31, 2026" in messages). */
const offerExpiration = z.preprocess(
  blankToUndefined,
  z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Offer expiration must be a date (YYYY-MM-DD)")
    .optional(),
);

const campaignFields = {
  description: optionalText(2000),
  promoCode: optionalText(50),
  offerExpiration,
  stopOnReply: bool.optional(),
};

export const createCampaignSchema = z.object({
  name: z.preprocess(
    (v) => (v === null ? undefined : v),
    z
      .string({ required_error: CAMPAIGN_NAME_REQUIRED, invalid_type_error: CAMPAIGN_NAME_REQUIRED })
      .trim()
      .min(1, CAMPAIGN_NAME_REQUIRED)
      .max(200, "Campaign name must be at most 200 characters"),
  ),
  ...campaignFields,
  scheduledAt: optionalDate,
  startDate: optionalDate,
  contactIds: contactIds.optional(),
  /** Every contact matching this contacts search ("" = all contacts), enrolled in chunks at start. */
  audienceQuery: z.string().trim().max(200).optional(),
  /** A saved segment (decision 075): its contacts at start; a later step goes only to those who still fit it. */
  segmentId: z.coerce.number().int().positive("segmentId must be a segment's id").optional(),
});
export type CreateCampaignInput = z.infer<typeof createCampaignSchema>;

export const updateCampaignSchema = z.object({
  name: createCampaignSchema.shape.name.optional(),
  ...campaignFields,
});
export type UpdateCampaignInput = z.infer<typeof updateCampaignSchema>;

export const addContactsSchema = z.object({ contactIds: contactIds.min(1, "Please select at least one contact") });

/** Non-numeric input becomes 0 (SPEC §5); out-of-range numbers are refused with a message. */
const delay = (max: number | null, message: string) =>
  z.preprocess(
    (v) => {
      const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : 0;
      return Number.isFinite(n) ? Math.trunc(n) : 0;
    },
    max === null ? z.number().min(0, message) : z.number().min(0, message).max(max, message),
  );

const required = z.preprocess(
  (v) => (v === null ? undefined : v),
  z
    .string({ required_error: STEP_FIELDS_REQUIRED, invalid_type_error: STEP_FIELDS_REQUIRED })
    .trim()
    .min(1, STEP_FIELDS_REQUIRED),
);
const clock = z.preprocess(blankToUndefined, z.string().max(8, "Use the HH:MM format").optional());

const stepFields = z.object({
  name: required.pipe(z.string().max(200, "Step name must be at most 200 characters")),
  messageType: z.preprocess(
    (v) => v ?? "sms",
    z.enum(["sms", "email"], { message: 'Message type must be "sms" or "email"' }),
  ),
  subject: optionalText(300).refine(isOneLine, SUBJECT_CONTROL_CHARS),
  content: required.pipe(z.string().max(MAX_CONTENT, `Content must be at most ${MAX_CONTENT} characters`)),
  delayDays: delay(3650, "Delay days must be at least 0"),
  delayHours: delay(23, "Delay hours must be between 0 and 23"),
  isActive: bool.optional(),
  /** Optional send window: "HH:MM" start and end in the contact's zone, weekdays only when set. */
  windowStart: clock,
  windowEnd: clock,
  windowWeekdays: bool.optional(),
});
export const stepSchema = stepFields;
export const addStepSchema = stepFields.extend({
  campaignId: z.coerce.number().int().positive("campaignId is required"),
});
export type StepInput = z.infer<typeof stepFields>;

/**
 * Variables a campaign step can fill: the contact's fields, the campaign's, its owner's name (the rep), date/time,
 * and the Solar figures (typed on the contact, else estimated from public data at send time — decision 074).
 */
export const STEP_VARIABLES: ReadonlySet<string> = new Set([
  ...COMPUTED_FIELD_VARIABLES,
  "firstName",
  "lastName",
  "fullName",
  "email",
  "phone",
  "address",
  "city",
  "state",
  "zipCode",
  "company",
  "salesRep",
  "campaignName",
  "promoCode",
  "offerExpiration",
  "currentDate",
  "currentTime",
  "currentYear",
]);

export type ValidStep = {
  name: string;
  messageType: "sms" | "email";
  subject: string | null;
  content: string;
  delayDays: number;
  delayHours: number;
  isActive: boolean;
  windowStart: number | null;
  windowEnd: number | null;
  windowWeekdays: boolean;
  /** An SMS step's picture (decision 076): a new one, null to remove it, absent to keep what the step has. */
  picture?: PictureAttachment | null;
};

/** Cross-field rules: email steps need a subject; a window needs both ends, start before end; known variables. */
export function checkStep(input: StepInput, fallbackActive = true): ValidStep {
  if (input.messageType === "email" && !input.subject)
    throw new AppError("validation", STEP_FIELDS_REQUIRED, { field: "subject" });
  const unknown = [input.content, input.subject].flatMap((p) => (p ? findUnknownVariables(p) : []));
  if (unknown.length)
    throw new AppError(
      "validation",
      `Unknown variable${unknown.length > 1 ? "s" : ""}: ${unknown.map((u) => `{{${u}}}`).join(", ")}`,
      { field: "content" },
    );
  assertNoLinkShortener(input.messageType, input.content);
  const unsourced = [
    ...new Set(
      [input.content, input.subject]
        .flatMap((p) => (p ? extractVariables(p) : []))
        .filter((v) => !STEP_VARIABLES.has(v)),
    ),
  ];
  if (unsourced.length) {
    throw new AppError(
      "validation",
      `No value is available yet for ${unsourced.map((u) => `{{${u}}}`).join(", ")}; remove ${unsourced.length > 1 ? "them" : "it"} or type the text in`,
      { field: "content" },
    );
  }
  let windowStart: number | null = null;
  let windowEnd: number | null = null;
  if (input.windowStart || input.windowEnd) {
    windowStart = input.windowStart ? parseClock(input.windowStart) : null;
    windowEnd = input.windowEnd ? parseClock(input.windowEnd) : null;
    if (windowStart === null || windowEnd === null || windowStart >= windowEnd) {
      throw new AppError(
        "validation",
        "A send window needs a start and an end time (HH:MM), the start before the end",
        { field: "windowStart" },
      );
    }
  }
  return {
    name: input.name,
    messageType: input.messageType,
    subject: input.messageType === "email" ? (input.subject ?? null) : null,
    content: input.content,
    delayDays: input.delayDays,
    delayHours: input.delayHours,
    isActive: input.isActive ?? fallbackActive,
    windowStart,
    windowEnd,
    windowWeekdays: windowStart !== null && (input.windowWeekdays ?? false),
  };
}

/** zod → AppError("validation") with the first issue's message (SPEC texts come through unchanged). */
export function parseInput<S extends z.ZodTypeAny>(schema: S, body: unknown, title?: string): z.infer<S> {
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new AppError("validation", "Request body must be an object", { title });
  const r = schema.safeParse(body);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new AppError("validation", issue?.message ?? "Invalid input", { field: issue?.path.join("."), title });
  }
  return r.data;
}
