import { z } from "zod";

/**
 * Queue messages are a versioned, validated union. Anything that does not parse is acked and
 * logged (never retried forever); each type has one handler in handle-job-batch.server.ts.
 */
export const sendJob = z.object({ v: z.literal(1), type: z.literal("send"), messageId: z.number().int().positive() });
export const inboundJob = z.object({
  v: z.literal(1),
  type: z.literal("inbound"),
  messageId: z.number().int().positive(),
});
export const importContactsJob = z.object({
  v: z.literal(1),
  type: z.literal("import-contacts"),
  importId: z.number().int().positive(),
});
/** Enrols (and, on start/resume, activates) a campaign's audience one bounded chunk at a time (app/campaigns). */
export const enrollCampaignJob = z.object({
  v: z.literal(1),
  type: z.literal("enroll-campaign"),
  campaignId: z.number().int().positive(),
  /** Keyset cursor over contact ids, newest first (the contacts list's `after`): null = from the newest. */
  afterContactId: z.number().int().positive().nullable(),
});
/** One outbound webhook delivery: a signed POST of the row's body to its subscription (app/webhooks, decision 036). */
export const webhookDeliveryJob = z.object({
  v: z.literal(1),
  type: z.literal("webhook-delivery"),
  deliveryId: z.number().int().positive(),
});
export const jobSchema = z.discriminatedUnion("type", [
  sendJob,
  inboundJob,
  importContactsJob,
  enrollCampaignJob,
  webhookDeliveryJob,
]);
export type Job = z.infer<typeof jobSchema>;
export type SendJob = z.infer<typeof sendJob>;
export type InboundJob = z.infer<typeof inboundJob>;
export type ImportContactsJob = z.infer<typeof importContactsJob>;
export type EnrollCampaignJob = z.infer<typeof enrollCampaignJob>;
export type WebhookDeliveryJob = z.infer<typeof webhookDeliveryJob>;

/**
 * The id a handler keys its outcome by (unique within one job type, as outcomes are per type): the message for
 * send/inbound jobs, the import for import jobs, the campaign for enrolment jobs, the delivery row for webhook jobs.
 */
export function jobKey(job: Job): number {
  switch (job.type) {
    case "import-contacts":
      return job.importId;
    case "enroll-campaign":
      return job.campaignId;
    case "webhook-delivery":
      return job.deliveryId;
    default:
      return job.messageId;
  }
}
