import { runImportJob } from "~/contacts/run-import-job.server";
import type { JobHandlers, JobOutcome } from "./handle-job-batch.server";

/** The handler for each job type. */
export const jobHandlers: JobHandlers = {
  async "import-contacts"(jobs, { db, env, now }) {
    const outcomes = new Map<number, JobOutcome>();
    // Imports are independent of each other; each runs its chunks in order.
    for (const job of jobs) {
      await runImportJob(db, job, { now, enqueue: async (j) => void (await env.JOBS.send(j)) });
    }
    return outcomes;
  },
};
