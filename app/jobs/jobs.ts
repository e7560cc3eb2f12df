import { z } from "zod";

/**
 * Queue messages are a versioned, validated union. Anything that does not parse is acked and
 * logged (never retried forever); each type has one handler in handle-job-batch.server.ts.
 */
/**
 * A send job names up to SEND_JOB_IDS messages (decision 081): a broadcast's 10,000 texts are 400 queue messages, not
 * 10,000 — a queue charges, and caps throughput, per message (Cloudflare: 5,000 a second per queue, three operations
 * each), and locally the queue's own work was ~9% of a sent text's CPU. The send consumer takes up to
 * SEND_QUEUE_BATCH of them at a time (wrangler.toml), so an invocation still sends ≤ 100 texts.
 */
export const SEND_JOB_IDS = 25;
export const SEND_QUEUE_BATCH = 4;
export const sendJob = z.object({
  v: z.literal(2),
  type: z.literal("send"),
  messageIds: z.array(z.number().int().positive()).min(1).max(SEND_JOB_IDS),
});
/** The one-message send job that queues may still hold from before decision 081: consumed as before, never made. */
export const sendJobV1 = z.object({ v: z.literal(1), type: z.literal("send"), messageId: z.number().int().positive() });
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
// Two shapes share the type "send", which a discriminated union cannot hold: the sends first, then the rest by type.
export const jobSchema = z.union([
  sendJob,
  sendJobV1,
  z.discriminatedUnion("type", [
    inboundJob,
    inboundMediaJob,
    importContactsJob,
    enrollCampaignJob,
    webhookDeliveryJob,
    pushJob,
    releaseHeldSendsJob,
    linkClickedJob,
  ]),
]);
export type Job = z.infer<typeof jobSchema>;
export type SendJob = z.infer<typeof sendJob> | z.infer<typeof sendJobV1>;
export type InboundJob = z.infer<typeof inboundJob>;
export type InboundMediaJob = z.infer<typeof inboundMediaJob>;
export type ImportContactsJob = z.infer<typeof importContactsJob>;
export type EnrollCampaignJob = z.infer<typeof enrollCampaignJob>;
export type WebhookDeliveryJob = z.infer<typeof webhookDeliveryJob>;
export type PushJob = z.infer<typeof pushJob>;
export type ReleaseHeldSendsJob = z.infer<typeof releaseHeldSendsJob>;
export type LinkClickedJob = z.infer<typeof linkClickedJob>;
export type PushNotification = z.infer<typeof pushNotification>;

/** The messages a send job names. */
export const messageIdsOf = (job: SendJob): readonly number[] => (job.v === 2 ? job.messageIds : [job.messageId]);

/** Send jobs for these messages, SEND_JOB_IDS to a job (the one producer: enqueue-due-messages' sendJobs). */
export function sendJobsFor(ids: readonly number[]): z.infer<typeof sendJob>[] {
  const jobs: z.infer<typeof sendJob>[] = [];
  for (let i = 0; i < ids.length; i += SEND_JOB_IDS)
    jobs.push({ v: 2, type: "send", messageIds: ids.slice(i, i + SEND_JOB_IDS) });
  return jobs;
}

/**
 * The ids a handler keys its outcomes by (unique within one job type, as outcomes are per type): the messages for
 * send/inbound jobs, the import for import jobs, the campaign for enrolment jobs, the delivery row for webhook jobs.
 */
export function jobKeys(job: Job): readonly number[] {
  if (job.type === "send") return messageIdsOf(job);
  return [jobKey(job)];
}

function jobKey(job: Exclude<Job, SendJob>): number {
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
