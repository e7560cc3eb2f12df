import type { Db } from "~/db/client.server";
import type { ImportContactsJob } from "~/jobs/jobs";
import { importNextChunk } from "./import-contacts.server";

/** Work on one import for at most `budgetMs`, then hand the rest to a fresh queue message. */
export async function runImportJob(
  db: Db,
  job: ImportContactsJob,
  deps: { now: () => Date; enqueue: (job: ImportContactsJob) => Promise<void>; budgetMs?: number },
) {
  const started = Date.now();
  const budget = deps.budgetMs ?? 15_000;
  for (;;) {
    const { done } = await importNextChunk(db, job.importId, deps.now());
    if (done) return;
    if (Date.now() - started > budget) {
      await deps.enqueue(job);
      return;
    }
  }
}
