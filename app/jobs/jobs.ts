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
/** An inbound MMS's files to fetch from Twilio into R2 (decision 057): the message's `pending` media rows. */
export const inboundMediaJob = z.object({
  v: z.literal(1),
  type: z.literal("inbound-media"),
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
/** What a push shows: the contact's name and a short preview, and the conversation to open (app/push, decision 049). */
export const pushNotification = z.object({
  title: z.string().max(120),
  body: z.string().max(200),
  url: z.string().max(300).startsWith("/"),
  tag: z.string().max(60),
  urgent: z.boolean().optional(),
});
/**
 * Web Push (app/push, decision 049), one type with five kinds: a hot-lead alert, an inbound reply or a link click to tell the
 * contact's owner about, a note's @mention to tell the mentioned user about (each fanned out to the user's
 * subscriptions, within the hourly cap), and one notification's
 * delivery to one subscription (`attempt`: re-enqueued with backoff on 429/5xx).
 */
export const pushJob = z.object({
  v: z.literal(1),
  type: z.literal("push"),
  event: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("hot-lead"), alertId: z.number().int().positive() }),
    z.object({ kind: z.literal("reply"), messageId: z.number().int().positive() }),
    // A lead's first picture was kept (decision 057): in a solar sale, the bill the proposal starts from.
    z.object({ kind: z.literal("bill"), messageId: z.number().int().positive() }),
    // A contact opened a tracked link for the first time (decision 068): tell the owner.
    z.object({ kind: z.literal("link-click"), clickId: z.number().int().positive() }),
    // Someone was @mentioned in an internal note (decision 047): the note, and the one mentioned user to tell.
    z.object({
      kind: z.literal("mention"),
      noteId: z.number().int().positive(),
      userId: z.number().int().positive(),
    }),
    z.object({
      kind: z.literal("deliver"),
      subscriptionId: z.number().int().positive(),
      attempt: z.number().int().min(0).max(20),
      notification: pushNotification,
    }),
  ]),
});
/** A resumed sending number's held marketing texts, released in bounded chunks (app/deliverability, decision 065). */
export const releaseHeldSendsJob = z.object({
  v: z.literal(1),
  type: z.literal("release-held-sends"),
  sender: z.string().min(1).max(40),
});
/** A tracked link's first click by a person (decision 068): the sequence rules and the owner's alert. */
export const linkClickedJob = z.object({
  v: z.literal(1),
  type: z.literal("link-clicked"),
  clickId: z.number().int().positive(),
});
export const jobSchema = z.discriminatedUnion("type", [
  sendJob,
  inboundJob,
  inboundMediaJob,
  importContactsJob,
  enrollCampaignJob,
  webhookDeliveryJob,
  pushJob,
  releaseHeldSendsJob,
  linkClickedJob,
]);
export type Job = z.infer<typeof jobSchema>;
export type SendJob = z.infer<typeof sendJob>;
export type InboundJob = z.infer<typeof inboundJob>;
export type InboundMediaJob = z.infer<typeof inboundMediaJob>;
export type ImportContactsJob = z.infer<typeof importContactsJob>;
export type EnrollCampaignJob = z.infer<typeof enrollCampaignJob>;
export type WebhookDeliveryJob = z.infer<typeof webhookDeliveryJob>;
export type PushJob = z.infer<typeof pushJob>;
export type ReleaseHeldSendsJob = z.infer<typeof releaseHeldSendsJob>;
export type LinkClickedJob = z.infer<typeof linkClickedJob>;
export type PushNotification = z.infer<typeof pushNotification>;

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
    case "push": // acked whatever happens: a retry is a new queue message (app/push/deliver-push)
      return "alertId" in job.event
        ? job.event.alertId
        : "messageId" in job.event
          ? job.event.messageId
          : "noteId" in job.event
            ? job.event.noteId
            : "clickId" in job.event
              ? job.event.clickId
              : job.event.subscriptionId;
    case "release-held-sends": // acked whatever happens: its handler queues the next run itself
      return 0;
    case "link-clicked":
      return job.clickId;
    default:
      return job.messageId;
  }
}
