import type { JobOutcomes } from "~/lib/job-queue";
import { jobKeys, jobSchema, type Job } from "./jobs";

/**
 * Each handler answers with outcomes keyed by `jobKeys` (a job without an entry is done: acked). `D`: what the
 * handlers take, built by the composition root (JobDeps in job-handlers.server.ts, `jobDeps` in app/wiring).
 */
export type JobHandlers<D> = {
  [K in Job["type"]]?: (jobs: Extract<Job, { type: K }>[], deps: D) => Promise<JobOutcomes>;
};

/**
 * Validates each message, groups them by type and lets each handler work on its group at once
 * (handlers are batch-aware so D1 writes and provider calls happen per batch, not per message).
 * Unknown shapes are acked and logged. A handler's per-message outcome decides ack or retry; a batch with nothing
 * to retry is acked in one call (the queue reports acks when the invocation ends either way, and a call per message
 * cost ~14 µs each in the send bench).
 */
export async function handleJobBatch<D>(batch: MessageBatch<unknown>, deps: D, handlers: JobHandlers<D>) {
  const groups = new Map<Job["type"], { job: Job; msg: Message<unknown> }[]>();
  const retries: { msg: Message<unknown>; delaySeconds: number }[] = [];
  for (const msg of batch.messages) {
    const parsed = jobSchema.safeParse(msg.body);
    if (!parsed.success || !handlers[parsed.data.type]) {
      console.warn("dropping unknown job", JSON.stringify(msg.body)?.slice(0, 200));
      continue;
    }
    const list = groups.get(parsed.data.type) ?? [];
    list.push({ job: parsed.data, msg });
    groups.set(parsed.data.type, list);
  }
  await Promise.all(
    [...groups].map(async ([type, items]) => {
      const handler = handlers[type] as (jobs: Job[], deps: D) => Promise<JobOutcomes>;
      try {
        const outcomes = await handler(
          items.map((i) => i.job),
          deps,
        );
        for (const item of items) {
          // Keyed by id: a message delivered twice in one batch gets the same answer for both copies. A job naming
          // several ids (a send job) comes back once, after the longest delay any of them asked for; the ones already
          // done find their rows no longer `queued` then and cost a read.
          let delaySeconds = -1;
          for (const key of jobKeys(item.job)) {
            const o = outcomes.get(key);
            if (o && "retryAfterSeconds" in o) delaySeconds = Math.max(delaySeconds, o.retryAfterSeconds);
          }
          if (delaySeconds >= 0) retries.push({ msg: item.msg, delaySeconds });
        }
      } catch (err) {
        console.error(`job handler ${type} failed`, err);
        for (const item of items) retries.push({ msg: item.msg, delaySeconds: 30 });
      }
    }),
  );
  if (retries.length === 0) return batch.ackAll();
  const retried = new Set(retries.map((r) => r.msg));
  for (const { msg, delaySeconds } of retries) msg.retry({ delaySeconds });
  for (const msg of batch.messages) if (!retried.has(msg)) msg.ack();
}
