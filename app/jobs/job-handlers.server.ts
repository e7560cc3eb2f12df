import type { JobHandlers } from "./handle-job-batch.server";

/** The handler for each job type; the messaging engine registers its own here. */
export const jobHandlers: JobHandlers = {};
