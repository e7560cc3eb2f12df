import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { webhookDeliveries } from "~/db/schema";
import type { JobQueue } from "~/lib/job-queue";
import { webhookJob } from "./emit-webhook-event.server";

/** Retries sent per tick at most: a receiver's long outage comes back spread over ticks. */
export const DUE_WEBHOOKS_PER_TICK = 100;

/**
 * The due-retry statement (query-plans in webhooks.test.ts): the partial index webhook_deliveries_due_idx holds only
 * waiting rows, so a tick reads the due ones and nothing else. Claims them (retrying → pending) in the same
 * statement, so two overlapping ticks never enqueue one delivery twice.
 */
export const dueWebhooksSql = (now: Date, limit: number) => sql`
  UPDATE ${webhookDeliveries} SET status = 'pending', next_attempt_at = NULL
  WHERE id IN (SELECT id FROM ${webhookDeliveries} WHERE status = 'retrying' AND next_attempt_at <= ${now.getTime()}
    ORDER BY next_attempt_at LIMIT ${limit})
  RETURNING id`;

/** Cron task: deliveries whose retry time has come go back on the queue. */
export async function dispatchDueWebhooks(db: Db, queue: JobQueue, now: Date, limit = DUE_WEBHOOKS_PER_TICK) {
  const rows = await db.all<{ id: number }>(dueWebhooksSql(now, limit));
  if (rows.length) await queue.sendBatch(rows.map((r) => ({ body: webhookJob(r.id) })));
  return rows.length;
}
