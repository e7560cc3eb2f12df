import { z } from "zod";
import { zodId } from "~/lib/ids";

/** Shapes of what /api/v1 answers (documentation of publicContact / publicCampaign / the send result). */
export const errorSchema = z.object({ message: z.string() }).describe("Every error: a human-readable message.");

export const idParams = z.object({ id: zodId("Not found") });
/** A contact's enrolment in a campaign: `/campaigns/{id}/enrolments/{contactId}`. */
export const enrolmentParams = idParams.extend({ contactId: zodId("Not found") });

const iso = z.string().describe("ISO 8601 timestamp");
export const contactOut = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().describe("E.164"),
  email: z.string().nullable(),
  company: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zipCode: z.string().nullable(),
  timeZone: z.string().nullable(),
  sendable: z.boolean(),
  unsendableReason: z.string().nullable(),
  optedOut: z.boolean(),
  optedOutAt: iso.nullable(),
  optedOutSource: z.string().nullable(),
  optedOutScope: z
    .enum(["all", "marketing"])
    .nullable()
    .describe("What the opt-out ended: every text, or marketing only (appointment texts go on); null when subscribed"),
  consentSource: z.string().nullable(),
  consentAt: iso.nullable(),
  consentPurpose: z
    .enum(["marketing", "informational"])
    .describe("What the contact's consent covers: marketing (every text) or informational (appointment texts only)"),
  emailUnsubscribed: z.boolean(),
  stage: z.string().describe("The pipeline stage's key: new, contacted, appointment_set, sat, sold, lost, cancelled"),
  stageChangedAt: iso.nullable(),
  createdAt: iso,
  updatedAt: iso,
});

export const campaignOut = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  status: z.string(),
  contactCount: z.number().int(),
  sentCount: z.number().int(),
  deliveredCount: z.number().int(),
  responseCount: z.number().int(),
  /** Tracked links first clicked in the campaign's texts (decision 068). */
  clickCount: z.number().int(),
  createdAt: iso,
  updatedAt: iso,
  scheduledAt: iso.nullable(),
  startDate: iso.nullable(),
  startedAt: iso.nullable(),
  completedAt: iso.nullable(),
  promoCode: z.string().nullable(),
  offerExpiration: z.string().nullable(),
  stopOnReply: z.boolean(),
  audienceQuery: z.string().nullable(),
  segmentId: z.number().int().nullable(),
  progress: z.object({
    enrolled: z.number().int(),
    waiting: z.number().int(),
    finished: z.number().int(),
    stopped: z.number().int(),
    enrolling: z.boolean(),
  }),
});

export const messageOut = z.object({
  id: z.number().int(),
  channel: z.enum(["sms", "email"]),
  direction: z.enum(["inbound", "outbound"]),
  kind: z.string().describe("individual, quick, reply, campaign, broadcast, auto_response, …"),
  status: z.string().describe("pending, queued, sending, sent, delivered, failed, received, …"),
  campaignId: z.number().int().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  subject: z.string().nullable(),
  content: z.string().describe("A message still waiting shows what the contact will read"),
  segments: z.number().int().nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  createdAt: iso,
  sentAt: iso.nullable(),
  deliveredAt: iso.nullable(),
});

export const enrolmentOut = z.object({
  id: z.number().int(),
  campaignId: z.number().int(),
  contactId: z.number().int(),
  status: z.enum(["active", "paused", "completed", "stopped"]),
  nextStepNumber: z.number().int(),
  nextRunAt: iso.nullable().describe("When the next step is due; null when none is"),
  lastSentAt: iso.nullable(),
  stopReason: z.string().nullable().describe("replied, opted_out, api, …"),
  createdAt: iso,
  updatedAt: iso,
});

/** A list page: pass `nextCursor` as `after` for the next page; null on the last page. */
export const page = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ data: z.array(item), nextCursor: z.number().int().nullable() });

/** ?limit&after of a keyset-paged list, newest first. */
export const pageQuery = (max: number) =>
  z.object({
    limit: z.coerce
      .number()
      .int("limit must be an integer")
      .min(1, "limit must be at least 1")
      .max(max, `limit must be at most ${max}`)
      .optional()
      .describe(`Page size, 1–${max}`),
    after: zodId("after must be an id").optional().describe("The previous page's nextCursor"),
  });
