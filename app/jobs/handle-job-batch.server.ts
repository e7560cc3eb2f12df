import type { Db } from "~/db/client.server";
import type { Clock } from "~/lib/clock";
import type { JobOutcomes, JobQueue } from "~/lib/job-queue";
import type { SendDeps } from "~/messaging/consume-send-batch.server";
import type { PipelineHooks } from "~/messaging/pipeline-hooks";
import { jobKey, jobSchema, type Job } from "./jobs";

/**
 * What the job handlers take, built by the composition root (app/wiring/app-deps.server.ts `jobDeps`). A batch can
 * run for minutes (paced sends, chunked imports), so handlers get the clock and read `now` where they need it.
 */
export type JobDeps = { db: Db; clock: Clock; queue: JobQueue; hooks: PipelineHooks; send: () => SendDeps };
/** Each handler answers with outcomes keyed by `jobKey` (a job without an entry is done: acked). */
export type JobHandlers = { [K in Job["type"]]?: (jobs: Extract<Job, { type: K }>[], deps: JobDeps) => Promise<JobOutcomes> };

/**
 * Validates each message, groups them by type and lets each handler work on its group at once
 * (handlers are batch-aware so D1 writes and provider calls happen per batch, not per message).
 * Unknown shapes are acked and logged. A handler's per-message outcome decides ack or retry.
 */
export async function handleJobBatch(batch: MessageBatch<unknown>, deps: JobDeps, handlers: JobHandlers) {
  const groups = new Map<Job["type"], { job: Job; msg: Message<unknown> }[]>();
  for (const msg of batch.messages) {
    const parsed = jobSchema.safeParse(msg.body);
    if (!parsed.success || !handlers[parsed.data.type]) {
      console.warn("dropping unknown job", JSON.stringify(msg.body)?.slice(0, 200));
      msg.ack();
      continue;
    }
    const list = groups.get(parsed.data.type) ?? [];
    list.push({ job: parsed.data, msg });
    groups.set(parsed.data.type, list);
  }
  await Promise.all(
    [...groups].map(async ([type, items]) => {
      const handler = handlers[type] as (jobs: Job[], deps: JobDeps) => Promise<JobOutcomes>;
      try {
        const outcomes = await handler(
          items.map((i) => i.job),
          deps,
        );
        items.forEach((item) => {
          // Keyed by id: a message delivered twice in one batch gets the same answer for both copies.
          const o = outcomes.get(jobKey(item.job));
          if (o && "retryAfterSeconds" in o) item.msg.retry({ delaySeconds: o.retryAfterSeconds });
          else item.msg.ack();
        });
      } catch (err) {
        console.error(`job handler ${type} failed`, err);
        for (const item of items) item.msg.retry({ delaySeconds: 30 });
      }
    }),
  );
}
