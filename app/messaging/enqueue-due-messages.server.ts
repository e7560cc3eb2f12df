import { and, asc, lte, sql } from "drizzle-orm";
import { inJson } from "~/db/bulk-update.server";
import type { Db } from "~/db/client.server";
import { messages } from "~/db/schema";
import { sendJobsFor } from "~/jobs/jobs";
import type { JobQueue } from "~/lib/job-queue";

// Between producer (create-outbound-messages) and consumer (consume-send-batch): rows whose time has come
// move pending → queued and go to the send queue, SEND_JOB_IDS to a queue message (decision 081).

/** The pending → queued step for these ids (exported for the query-plan test). */
export const markQueued = (db: Db, ids: readonly number[], now: Date) =>
  db
    .update(messages)
    .set({ status: "queued", updatedAt: now })
    .where(and(inJson(messages.id, ids), sql`+${messages.status} = 'pending'`, lte(messages.scheduledAt, now)))
    .returning({ id: messages.id });

/**
 * pending → queued for due rows, then their send jobs (sendJobs). A row whose
 * queue message is lost stays `queued`; the cron reconciler re-enqueues it and the consumer's claim makes
 * duplicates harmless.
 */
export async function enqueueDueMessages(db: Db, queue: JobQueue, now: Date, ids: number[]) {
  let queued = 0;
  for (let i = 0; i < ids.length; i += 1000) {
    // `+status`: find the rows by id; the status index would scan the whole pending backlog.
    const rows = await markQueued(db, ids.slice(i, i + 1000), now);
    await sendJobs(
      queue,
      rows.map((r) => r.id),
    );
    queued += rows.length;
  }
  return queued;
}

/** The send jobs for these messages, SEND_JOB_IDS ids to a job and ≤ 100 jobs to a sendBatch (the queue's limit). */
export async function sendJobs(queue: JobQueue, ids: readonly number[]) {
  const jobs = sendJobsFor(ids);
  for (let i = 0; i < jobs.length; i += 100)
    await queue.sendBatch(jobs.slice(i, i + 100).map((body) => ({ body, contentType: "json" as const })));
}

/**
 * Cron: everything pending whose time has come (scheduled sends, quiet-hours deferrals), in chunks of 1000,
 * at most `maxPerTick` per invocation (an invocation's subrequests are limited); the rest goes next minute.
 */
export async function dispatchDueMessages(db: Db, queue: JobQueue, now: Date, maxPerTick = 40_000) {
  let total = 0;
  for (;;) {
    // The literal status: messages_due_idx is partial and a bound status cannot use it.
    const due = await db
      .select({ id: messages.id })
      .from(messages)
      .where(and(sql`${messages.status} = 'pending'`, lte(messages.scheduledAt, now)))
      .orderBy(asc(messages.scheduledAt))
      .limit(1000);
    if (due.length === 0) break;
    total += await enqueueDueMessages(
      db,
      queue,
      now,
      due.map((d) => d.id),
    );
    if (due.length < 1000 || total >= maxPerTick) break;
  }
  return total;
}
