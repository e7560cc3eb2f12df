import { z } from "zod";
import { ALERT_CATEGORIES, MESSAGE_CHANNELS, MESSAGE_STATUSES, type WebhookEventType } from "~/db/schema";

/**
 * What each outbound webhook event's `data` holds (decision 036): the published contract of the receivers' side,
 * served in /api/v1/openapi.json's `webhooks` section. The emitters build these objects; webhooks.test.ts parses
 * every body its fake receiver gets with `webhookEventSchema`, so the document cannot drift from what is sent.
 */
const id = z.number().int();
const time = z.string().datetime().describe("ISO 8601, UTC");

export const WEBHOOK_EVENT_DATA = {
  "message.received": z.object({
    message_id: id.describe("0 for a test event"),
    contact_id: id.nullable(),
    from: z.string().nullable().describe("The homeowner's number, E.164"),
    body: z.string(),
    campaign_id: id.nullable().describe("The campaign the reply was attributed to"),
    received_at: time,
    test: z.literal(true).optional().describe('Only on the screen\'s "Send test event"'),
  }),
  "message.failed": z.object({
    message_id: id,
    contact_id: id.nullable(),
    phone: z.string().nullable(),
    channel: z.enum(MESSAGE_CHANNELS),
    status: z.enum(MESSAGE_STATUSES),
    error_code: z.string().nullable().describe("The provider's code, e.g. Twilio 30007"),
    error_message: z.string().nullable(),
    campaign_id: id.nullable(),
    failed_at: time,
  }),
  "contact.opted_out": z.object({
    contact_id: id.nullable(),
    channel: z.enum(MESSAGE_CHANNELS),
    address: z.string().nullable().describe("The number or email address that opted out"),
    source: z.string().nullable().describe("STOP keyword, plain words, unsubscribe link, carrier 21610, manual…"),
    message_id: id.nullable(),
    opted_out_at: time,
  }),
  "alert.created": z.object({
    alert_id: id,
    contact_id: id.nullable(),
    phone: z.string().nullable(),
    message_id: id.nullable().describe("The reply that raised it"),
    body: z.string(),
    priority: z.string(),
    category: z.enum(ALERT_CATEGORIES),
    created_at: time,
  }),
  "campaign.completed": z.object({
    campaign_id: id,
    name: z.string(),
    counts: z.object({
      contacts: id,
      sent: id,
      delivered: id,
      responses: id,
      opted_out: id,
      finished: id,
      stopped: id,
    }),
    started_at: time.nullable(),
    completed_at: time,
  }),
  "lead.created": z.object({
    contact_id: id,
    phone: z.string().nullable(),
    source: z.string().nullable(),
    created: z.boolean().describe("false when the lead matched an existing contact"),
    fields: z.record(z.unknown()).optional(),
  }),
} satisfies Record<WebhookEventType, z.ZodTypeAny>;

/** The body of one delivery of `type`: the envelope every event shares around its `data`. */
export const webhookEnvelope = <T extends WebhookEventType>(type: T) =>
  z.object({
    id: z.string().describe("Stable per source event (also the Helio-Event-Id header): deduplicate on it"),
    type: z.literal(type),
    created_at: time,
    data: WEBHOOK_EVENT_DATA[type],
  });

/** Any delivery body. */
export const webhookEventSchema = z.discriminatedUnion(
  "type",
  Object.keys(WEBHOOK_EVENT_DATA).map((t) => webhookEnvelope(t as WebhookEventType)) as unknown as [
    ReturnType<typeof webhookEnvelope<"message.received">>,
    ...ReturnType<typeof webhookEnvelope<WebhookEventType>>[],
  ],
);
