import type { JobQueue } from "~/lib/job-queue";

/**
 * Two queues, one job union. A send batch may wait inside its consumer for paced slots (up to the slot window,
 * decision 004), and a queue delivers batches to a consumer one after another locally (Miniflare) and with bounded
 * concurrency on Cloudflare — so imports, inbound replies (auto-responders, alerts) and campaign enrolment go to
 * `helio-tasks` and never wait behind paced sends. Both queues share the consumer and the dead-letter queue.
 */
export const SEND_QUEUE = "helio-jobs";
export const TASK_QUEUE = "helio-tasks";

const isSend = (body: unknown) =>
  typeof body === "object" && body !== null && (body as { type?: unknown }).type === "send";

/** The producer every caller uses: routes each job to its queue by type. */
export function jobQueue(env: Pick<Env, "JOBS" | "TASKS">): JobQueue {
  return {
    send: (body, options) => (isSend(body) ? env.JOBS : env.TASKS).send(body, options),
    async sendBatch(messages) {
      const sends: MessageSendRequest<unknown>[] = [];
      const tasks: MessageSendRequest<unknown>[] = [];
      for (const m of messages) (isSend(m.body) ? sends : tasks).push(m);
      await Promise.all([
        sends.length ? env.JOBS.sendBatch(sends) : null,
        tasks.length ? env.TASKS.sendBatch(tasks) : null,
      ]);
    },
  };
}
