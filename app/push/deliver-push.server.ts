import { eq } from "drizzle-orm";
import { pushSubscriptions } from "~/db/schema";
import type { PushJob } from "~/jobs/jobs";
import type { PushDeps } from "./notify-push.server";
import { sendWebPush } from "./web-push.server";

/** Attempts per notification per subscription; the 5th failure worth a retry gives up. */
export const MAX_PUSH_ATTEMPTS = 5;
/** Backoff between attempts: 30 s, 2 min, 8 min, 32 min — or the push service's Retry-After, at most an hour. */
export const pushBackoffSeconds = (attempt: number, retryAfter: number | null) =>
  Math.min(retryAfter ?? 30 * 4 ** attempt, 3600);

/**
 * One notification to one subscription (the `deliver` kind of the `push` job). Delivered: the row notes it. 404/410:
 * the browser unsubscribed or the subscription expired — the row is deleted. 429/5xx/network: the same delivery is
 * enqueued again with backoff (a new queue message with attempt + 1, so the count is ours, not the queue's), never
 * a new notification: the hourly cap was counted once, when it was fanned out.
 */
export async function deliverPush(deps: PushDeps, job: Extract<PushJob["event"], { kind: "deliver" }>) {
  const { db, config } = deps;
  if (!config) return { status: "off" as const };
  const sub = await db
    .select({ endpoint: pushSubscriptions.endpoint, p256dh: pushSubscriptions.p256dh, auth: pushSubscriptions.auth })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.id, job.subscriptionId))
    .get();
  if (!sub) return { status: "gone" as const };
  const n = job.notification;
  const result = await sendWebPush(
    config,
    sub,
    { title: n.title, body: n.body, url: n.url, tag: n.tag },
    { now: deps.now, fetch: deps.fetch, urgency: n.urgent ? "high" : "normal", topic: n.tag },
  );
  if (result.ok) {
    await db
      .update(pushSubscriptions)
      .set({ lastSuccessAt: deps.now })
      .where(eq(pushSubscriptions.id, job.subscriptionId));
    return { status: "delivered" as const };
  }
  if (result.gone) {
    await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, job.subscriptionId));
    return { status: "gone" as const };
  }
  if (result.retry && job.attempt + 1 < MAX_PUSH_ATTEMPTS) {
    await deps.queue.send({ v: 1, type: "push", event: { ...job, attempt: job.attempt + 1 } } satisfies PushJob, {
      delaySeconds: pushBackoffSeconds(job.attempt, result.retryAfterSeconds),
    });
    return { status: "retrying" as const };
  }
  console.warn(`push to subscription ${job.subscriptionId} failed: HTTP ${result.status}`);
  return { status: "failed" as const };
}
