import { runEnrollmentJob } from "~/campaigns/run-enrollment-job.server";
import { runImportJob } from "~/contacts/run-import-job.server";
import { buildSendDeps } from "~/messaging/build-send-deps.server";
import { processInboundMessages } from "~/messaging/receive-inbound.server";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { replyDepsFor } from "~/responders/reply-deps.server";
import type { JobOutcomes } from "~/lib/job-queue";
import type { JobHandlers } from "./handle-job-batch.server";
import { jobQueue } from "~/jobs/job-queue.server";

/** The handler for each job type. Each gets the whole batch's jobs of its type. */
export const jobHandlers: JobHandlers = {
  send: (jobs, { db, env, now }) => sendMessages(jobs, buildSendDeps(env, db, now)),

  async inbound(jobs, { db, env, now }) {
    await processInboundMessages(db, jobs.map((j) => j.messageId), now(), replyDepsFor(env, db));
    return new Map() as JobOutcomes;
  },

  async "import-contacts"(jobs, { db, env, now }) {
    // Imports are independent of each other; each runs its chunks in order.
    for (const job of jobs) {
      await runImportJob(db, job, { now, enqueue: async (j) => void (await jobQueue(env).send(j)) });
    }
    return new Map() as JobOutcomes;
  },

  // Campaign start/resume: enrol and release the audience in bounded chunks (app/campaigns).
  async "enroll-campaign"(jobs, { db, env, now }) {
    for (const job of jobs) await runEnrollmentJob(job, { db, queue: jobQueue(env), now: now() });
    return new Map() as JobOutcomes;
  },
};
