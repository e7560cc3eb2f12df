import type { JobQueue } from "~/lib/job-queue";
import type { ImportContactsJob } from "./jobs";

/** The `enqueue` a contact import's domain functions take: the rest of the import goes to the task queue. */
export function importEnqueuer(queue: JobQueue) {
  return async (importId: number) => {
    await queue.send({ v: 1, type: "import-contacts", importId } satisfies ImportContactsJob);
  };
}
