import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { handleJobBatch } from "./handle-job-batch.server";
import { messageIdsOf, SEND_JOB_IDS, sendJobsFor } from "./jobs";

const send = (id: string, ...messageIds: number[]) => ({
  id,
  timestamp: new Date(),
  attempts: 1,
  body: { v: 2, type: "send", messageIds } as unknown,
});
/** The one-message job queues may still hold from before decision 081. */
const legacySend = (id: string, messageId: number) => ({ ...send(id), body: { v: 1, type: "send", messageId } });

/** Runs the batch; the handler asks to retry `retry`'s ids after their delays (seconds) and records the ids it got. */
async function run(messages: ReturnType<typeof send>[], retry: Record<number, number>, throws = false) {
  const batch = createMessageBatch("helio-jobs", messages);
  const ctx = createExecutionContext();
  const handled: number[] = [];
  await handleJobBatch(batch, null, {
    send: async (jobs) => {
      if (throws) throw new Error("boom");
      const ids = jobs.flatMap(messageIdsOf);
      handled.push(...ids);
      return new Map(ids.filter((id) => id in retry).map((id) => [id, { retryAfterSeconds: retry[id] }]));
    },
  });
  return { ...(await getQueueResult(batch, ctx)), handled };
}

describe("handleJobBatch: ack and retry", () => {
  it("acks a batch with nothing to retry in one call, unknown shapes included", async () => {
    const r = await run([send("a", 1, 2), legacySend("b", 3), { ...send("c", 4), body: { v: 9 } }], {});
    expect(r).toMatchObject({ ackAll: true, retryBatch: { retry: false }, explicitAcks: [], retryMessages: [] });
    expect(r.handled).toEqual([1, 2, 3]); // a legacy one-message job is still sent
  });

  it("retries only the jobs naming an id the handler asked to retry, and acks the rest one by one", async () => {
    const r = await run([send("a", 1, 2), send("b", 3, 4), legacySend("c", 5), legacySend("d", 6)], {
      4: 7,
      6: 3,
    });
    expect(r.ackAll).toBe(false);
    expect(r.retryMessages).toEqual([{ msgId: "b" }, { msgId: "d" }]); // getQueueResult does not report the delay
    expect([...r.explicitAcks].sort()).toEqual(["a", "c"]);
  });

  it("brings a job back after the longest delay any of its ids asked for", async () => {
    const retried: { id: string; delaySeconds?: number }[] = [];
    const message = (m: ReturnType<typeof send>) => ({
      ...m,
      retry: (o?: QueueRetryOptions) => retried.push({ id: m.id, delaySeconds: o?.delaySeconds }),
      ack: () => {},
    });
    const batch = {
      queue: "helio-jobs",
      messages: [message(send("a", 1, 2, 3)), message(send("b", 4))],
      ackAll: () => {},
      retryAll: () => {},
    } as unknown as MessageBatch<unknown>;
    await handleJobBatch(batch, null, {
      send: async () =>
        new Map([
          [1, { retryAfterSeconds: 5 }],
          [3, { retryAfterSeconds: 40 }],
          [2, { retryAfterSeconds: 10 }],
        ]),
    });
    expect(retried).toEqual([{ id: "a", delaySeconds: 40 }]);
  });

  it("retries every job of a handler that threw, for later", async () => {
    const r = await run([send("a", 1), send("b", 2, 3)], {}, true);
    expect(r.ackAll).toBe(false);
    expect(r.retryMessages).toEqual([{ msgId: "a" }, { msgId: "b" }]);
    expect(r.explicitAcks).toEqual([]);
  });

  it("drops a send job naming more ids than a job may (the consumer's batch stays ≤ 100 texts)", async () => {
    const ids = Array.from({ length: SEND_JOB_IDS + 1 }, (_, i) => i + 1);
    const r = await run([send("a", ...ids), send("b")], {});
    expect(r.handled).toEqual([]);
    expect(r.ackAll).toBe(true);
  });
});

describe("sendJobsFor", () => {
  it("names every id once, in order, SEND_JOB_IDS to a job", () => {
    const ids = Array.from({ length: 2 * SEND_JOB_IDS + 3 }, (_, i) => 1000 + i);
    const jobs = sendJobsFor(ids);
    expect(jobs.map((j) => messageIdsOf(j).length)).toEqual([SEND_JOB_IDS, SEND_JOB_IDS, 3]);
    expect(jobs.flatMap(messageIdsOf)).toEqual(ids);
    expect(sendJobsFor([])).toEqual([]);
  });
});
