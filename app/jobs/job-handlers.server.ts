import { runEnrollmentJob } from "~/campaigns/run-enrollment-job.server";
import { runImportJob } from "~/contacts/run-import-job.server";
import { processInboundMessages } from "~/messaging/receive-inbound.server";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import type { JobOutcomes } from "~/lib/job-queue";
import type { Db } from "~/db/client.server";
import type { Clock } from "~/lib/clock";
import type { JobQueue } from "~/lib/job-queue";
import type { SendDeps } from "~/messaging/consume-send-batch.server";
import type { PipelineHooks } from "~/messaging/pipeline-hooks";
import type { WebhookDeps } from "~/webhooks/deliver-webhooks.server";
import { deliverWebhooks } from "~/webhooks/deliver-webhooks.server";
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
};
