import { runEnrollmentJob } from "~/campaigns/run-enrollment-job.server";
import { runImportJob } from "~/contacts/run-import-job.server";
import { processInboundMessages } from "~/messaging/receive-inbound.server";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { fetchInboundMedia, type MediaDeps } from "~/messaging/fetch-inbound-media.server";
import { readBillPhotos } from "~/savings/read-bill-photos.server";
import type { AiDeps } from "~/ai/run-chain.server";
import type { JobOutcomes } from "~/lib/job-queue";
import type { Db } from "~/db/client.server";
import type { Clock } from "~/lib/clock";
import type { JobQueue } from "~/lib/job-queue";
import type { SendDeps } from "~/messaging/consume-send-batch.server";
import type { PipelineHooks } from "~/messaging/pipeline-hooks";
import type { WebhookDeps } from "~/webhooks/deliver-webhooks.server";
import { deliverWebhooks } from "~/webhooks/deliver-webhooks.server";
import { deliverPush } from "~/push/deliver-push.server";
import { notifyPush, type PushDeps } from "~/push/notify-push.server";
import { releaseHeldSends } from "~/deliverability/resume-sending-number.server";
import { onLinkClicked } from "~/wiring/link-click-hooks.server";
import type { JobHandlers } from "./handle-job-batch.server";

/**
 * What the job handlers take, built by the composition root (app/wiring/app-deps.server.ts `jobDeps`). A batch can
 * run for minutes (paced sends, chunked imports), so handlers get the clock and read `now` where they need it.
 */
export type JobDeps = {
  db: Db;
  clock: Clock;
  queue: JobQueue;
  hooks: PipelineHooks;
  send: () => SendDeps;
  webhooks: () => WebhookDeps;
  /** Web Push: the VAPID keys (or null: off), fetch, the links' base. */
  push: (now: Date) => PushDeps;
  /** Inbound MMS files: the R2 bucket and the provider that fetches them (decision 057). */
  media: (now: Date) => MediaDeps;
  /** The AI chain (the bill reader, decision 077). */
  ai: () => AiDeps;
};

/**
 * The handler for each job type. Each gets the whole batch's jobs of its type, and the dependencies the composition
 * root built (app/wiring): this file dispatches, like a route; it builds nothing.
 */
export const jobHandlers: JobHandlers<JobDeps> = {
  send: (jobs, deps) => sendMessages(jobs, deps.send()),

  // The pipeline's inbound processors, in their declared order (app/wiring/pipeline-hooks.server.ts).
  async inbound(jobs, { db, queue, clock, hooks }) {
    await processInboundMessages(
      { db, queue, now: clock() },
      jobs.map((j) => j.messageId),
      hooks.inbound,
    );
    return new Map() as JobOutcomes;
  },

  // An inbound MMS's files, from Twilio into R2 (decision 057); a network error asks for a retry of that message's job.
  async "inbound-media"(jobs, { media, clock, ai }) {
    const deps = media(clock());
    const ids = jobs.map((j) => j.messageId);
    const outcomes = await fetchInboundMedia(deps, ids);
    // A bill photo fills the contact's blank bill, use and utility where a vision model is configured (decision
    // 077). Its failure never retries the job: the pictures are stored, and the rep can type the figures.
    await readBillPhotos({ db: deps.db, bucket: deps.bucket, ai: ai(), now: deps.now }, ids).catch((err) =>
      console.error("[read-bill] failed", err),
    );
    return outcomes;
  },

  async "import-contacts"(jobs, { db, queue, clock }) {
    // Imports are independent of each other; each runs its chunks in order.
    for (const job of jobs) {
      await runImportJob(db, job, { clock, enqueue: async (j) => void (await queue.send(j)) });
    }
    return new Map() as JobOutcomes;
  },

  // Campaign start/resume: enrol and release the audience in bounded chunks (app/campaigns).
  async "enroll-campaign"(jobs, { db, queue, clock }) {
    for (const job of jobs) await runEnrollmentJob(job, { db, queue, now: clock() });
    return new Map() as JobOutcomes;
  },

  // Outbound webhooks (decision 036): each attempt's outcome is written to its row; retries wait there for the tick.
  async "webhook-delivery"(jobs, deps) {
    await deliverWebhooks(
      deps.webhooks(),
      jobs.map((j) => j.deliveryId),
    );
    return new Map() as JobOutcomes;
  },

  // A resumed sending number's held marketing (decision 065), in bounded chunks; a full run queues the next.
  async "release-held-sends"(jobs, { db, queue, clock }) {
    for (const { sender } of jobs) {
      const { more } = await releaseHeldSends({ db, queue, now: clock() }, sender);
      if (more) await queue.send({ v: 1, type: "release-held-sends", sender });
    }
    return new Map() as JobOutcomes;
  },

  // A tracked link's first click (decision 068): the sequence rules, then the owner's push.
  async "link-clicked"(jobs, { db, queue, clock }) {
    await onLinkClicked(
      { db, queue, now: clock() },
      jobs.map((j) => j.clickId),
    );
    return new Map() as JobOutcomes;
  },

  // Web Push (decision 049): tell a contact's owner, then one delivery per subscription; retries are new messages.
  async push(jobs, deps) {
    for (const { event } of jobs) {
      const push = deps.push(deps.clock());
      if (event.kind === "deliver") await deliverPush(push, event);
      else await notifyPush(push, event);
    }
    return new Map() as JobOutcomes;
  },
};
