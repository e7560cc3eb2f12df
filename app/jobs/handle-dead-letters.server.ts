import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { jobSchema } from "./jobs";

/**
 * Consumer of the dead-letter queue: a job that failed every retry ends its work visibly instead of
 * waiting forever — a send still `queued` is failed (the reconciler would otherwise re-enqueue it every
 * 15 minutes), an import is marked failed with a message its page shows. Everything is acked.
 */
export async function handleDeadLetters(batch: MessageBatch<unknown>, db: Db, now: Date) {
  const t = now.getTime();
  const sends: number[] = [];
  const imports: number[] = [];
  for (const msg of batch.messages) {
    const job = jobSchema.safeParse(msg.body);
    if (job.success && job.data.type === "send") sends.push(job.data.messageId);
    else if (job.success && job.data.type === "import-contacts") imports.push(job.data.importId);
    else console.warn("dead-lettered job", JSON.stringify(msg.body)?.slice(0, 200));
    msg.ack();
  }
  if (sends.length) {
    await db.run(sql`UPDATE messages SET status = 'failed', error_message = coalesce(error_message || ' — ', '') || 'gave up after repeated delivery failures', updated_at = ${t}
                     WHERE id IN (SELECT value FROM json_each(${JSON.stringify(sends)})) AND +status = 'queued'`);
  }
  if (imports.length) {
    await db.run(sql`UPDATE contact_imports SET status = 'failed', failure_message = 'The import stopped after repeated errors. Contacts imported so far were kept; upload the file again to finish (existing contacts are detected as duplicates).', updated_at = ${t}
                     WHERE id IN (SELECT value FROM json_each(${JSON.stringify(imports)})) AND status = 'importing'`);
  }
  return { sends: sends.length, imports: imports.length };
}
