import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import type { SendJob } from "~/jobs/jobs";
import type { JobQueue } from "~/lib/job-queue";

// Between producer (create-outbound-messages) and consumer (consume-send-batch): rows whose time has come
// move pending → queued and get one `send` queue message each.

/** The SQL of the pending → queued step for a JSON array of ids (exported for the query-plan test). */
export const markQueuedSql = (idsJson: string, t: number) => sql`
      UPDATE messages SET status = 'queued', updated_at = ${t}
      WHERE id IN (SELECT value FROM json_each(${idsJson}))
        AND +status = 'pending' AND scheduled_at <= ${t}
      RETURNING id`;

/**
 * pending → queued for due rows, then one queue message per row (sendBatch, 100 at a time). A row whose
 * queue message is lost stays `queued`; the cron reconciler re-enqueues it and the consumer's claim makes
 * duplicates harmless.
 */
export async function enqueueDueMessages(db: Db, queue: JobQueue, now: Date, ids: number[]) {
  const t = now.getTime();
  let queued = 0;
  for (let i = 0; i < ids.length; i += 1000) {
    // `+status`: find the rows by id; the status index would scan the whole pending backlog.
    const rows = await db.all<{ id: number }>(markQueuedSql(JSON.stringify(ids.slice(i, i + 1000)), t));
    await sendJobs(
      queue,
      rows.map((r) => r.id),
    );
    queued += rows.length;
  }
  return queued;
}

export async function sendJobs(queue: JobQueue, ids: number[]) {
  for (let i = 0; i < ids.length; i += 100) {
    const body: SendJob[] = ids.slice(i, i + 100).map((messageId) => ({ v: 1, type: "send", messageId }));
    if (body.length) await queue.sendBatch(body.map((b) => ({ body: b, contentType: "json" })));
  }
}

/**
 * Cron: everything pending whose time has come (scheduled sends, quiet-hours deferrals), in chunks of 1000,
 * at most `maxPerTick` per invocation (each 100 are one queue send, and an invocation's subrequests are
 * limited); the rest goes next minute.
 */
export async function dispatchDueMessages(db: Db, queue: JobQueue, now: Date, maxPerTick = 40_000) {
  let total = 0;
  for (;;) {
    const due = await db.all<{ id: number }>(
      sql`SELECT id FROM messages WHERE status = 'pending' AND scheduled_at <= ${now.getTime()} ORDER BY scheduled_at LIMIT 1000`,
    );
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
