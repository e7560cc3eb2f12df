import { jobQueue } from "./job-queue.server";
import type { ImportContactsJob } from "./jobs";

/** The `enqueue` a contact import's domain functions take: the rest of the import goes to the task queue. */
export function importEnqueuer(env: Env) {
  return async (importId: number) => {
    await jobQueue(env).send({ v: 1, type: "import-contacts", importId } satisfies ImportContactsJob);
  };
}
