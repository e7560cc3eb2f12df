import type { Db } from "~/db/client.server";
import type { ImportContactsJob } from "~/jobs/jobs";
import { importNextChunk } from "./import-next-chunk.server";
import type { Clock } from "~/lib/clock";

/** Work on one import for at most `budgetMs`, then hand the rest to a fresh queue message. */
export async function runImportJob(
  db: Db,
  job: ImportContactsJob,
  deps: { clock: Clock; enqueue: (job: ImportContactsJob) => Promise<void>; budgetMs?: number },
) {
  const started = Date.now();
  const budget = deps.budgetMs ?? 15_000;
  for (;;) {
    const { done } = await importNextChunk(db, job.importId, deps.clock());
    if (done) return;
    // Back to the event loop between chunks: otherwise requests to the same isolate (the progress page
    // polling this import) wait for the whole run (seen under wrangler dev).
    await new Promise((r) => setTimeout(r, 0));
    if (Date.now() - started > budget) {
      await deps.enqueue(job);
      return;
    }
  }
}
