import { and, asc, eq, lte } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { inJson } from "~/db/bulk-update.server";
import { webhookDeliveries } from "~/db/schema";
import type { JobQueue } from "~/lib/job-queue";
import { webhookJob } from "./emit-webhook-event.server";

/** Retries sent per tick at most: a receiver's long outage comes back spread over ticks. */
export const DUE_WEBHOOKS_PER_TICK = 100;

/**
 * The due-retry read (its plan is checked in webhooks.test.ts): the partial index webhook_deliveries_due_idx holds
 * only waiting rows, so a tick reads the due ones and nothing else.
 */
export const dueWebhooksQuery = (db: Db, now: Date, limit: number) =>
  db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, "retrying"), lte(webhookDeliveries.nextAttemptAt, now)))
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit);

/**
 * Cron task: deliveries whose retry time has come go back on the queue. The claim (retrying → pending) is guarded
 * by the status, by primary key, so two overlapping ticks never enqueue one delivery twice.
 */
export async function dispatchDueWebhooks(db: Db, queue: JobQueue, now: Date, limit = DUE_WEBHOOKS_PER_TICK) {
  const due = await dueWebhooksQuery(db, now, limit);
  if (!due.length) return 0;
  const claimed = await db
    .update(webhookDeliveries)
    .set({ status: "pending", nextAttemptAt: null })
    .where(
      and(
        inJson(
          webhookDeliveries.id,
          due.map((r) => r.id),
        ),
        eq(webhookDeliveries.status, "retrying"),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  if (claimed.length) await queue.sendBatch(claimed.map((r) => ({ body: webhookJob(r.id) })));
  return claimed.length;
}
