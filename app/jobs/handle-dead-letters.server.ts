import { and, eq, sql } from "drizzle-orm";
import { inJson } from "~/db/bulk-update.server";
import type { Db } from "~/db/client.server";
import { contactImports, messages } from "~/db/schema";
import { jobSchema, messageIdsOf } from "./jobs";

const FAILED_CHUNK = 100;

/**
 * Consumer of the dead-letter queue: a job that failed every retry ends its work visibly instead of
 * waiting forever — a send still `queued` is failed (the reconciler would otherwise re-enqueue it every
 * 15 minutes), an import is marked failed with a message its page shows. Everything is acked.
 */
export async function handleDeadLetters(
  batch: MessageBatch<unknown>,
  db: Db,
  now: Date,
  /** Told the sends this moved to `failed` (the root runs the pipeline's final-failure hooks). */
  onFailed: (messageIds: number[]) => Promise<unknown>,
) {
  const sends: number[] = [];
  const imports: number[] = [];
  for (const msg of batch.messages) {
    const job = jobSchema.safeParse(msg.body);
    if (job.success && job.data.type === "send") sends.push(...messageIdsOf(job.data));
    else if (job.success && job.data.type === "import-contacts") imports.push(job.data.importId);
    else console.warn("dead-lettered job", JSON.stringify(msg.body)?.slice(0, 200));
    msg.ack();
  }
  if (sends.length) {
    const failed = await db
      .update(messages)
      .set({
        status: "failed",
        errorMessage: sql`coalesce(${messages.errorMessage} || ' — ', '') || 'gave up after repeated delivery failures'`,
        updatedAt: now,
      })
      .where(and(inJson(messages.id, sends), sql`+${messages.status} = 'queued'`))
      .returning({ id: messages.id });
    // A dead-letter batch can name 50 jobs × 25 messages: the final-failure hooks get them a send batch's worth at a
    // time (≤ 100, what they were built for and D1's bound parameters per statement), every chunk told.
    for (let i = 0; i < failed.length; i += FAILED_CHUNK)
      await onFailed(failed.slice(i, i + FAILED_CHUNK).map((m) => m.id));
  }
  if (imports.length) {
    await db
      .update(contactImports)
      .set({
        status: "failed",
        failureMessage:
          "The import stopped after repeated errors. Contacts imported so far were kept; upload the file again to finish (existing contacts are detected as duplicates).",
        updatedAt: now,
      })
      .where(and(inJson(contactImports.id, imports), eq(contactImports.status, "importing")));
  }
  return { sends: sends.length, imports: imports.length };
}
