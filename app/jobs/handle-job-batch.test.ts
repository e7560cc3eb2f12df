import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { handleJobBatch } from "./handle-job-batch.server";

const send = (id: string, messageId: number) => ({
  id,
  timestamp: new Date(),
  attempts: 1,
  body: { v: 1, type: "send", messageId },
});

async function run(messages: ReturnType<typeof send>[], retryIds: number[], throws = false) {
  const batch = createMessageBatch("helio-jobs", messages);
  const ctx = createExecutionContext();
  await handleJobBatch(batch, null, {
    send: async (jobs) => {
      if (throws) throw new Error("boom");
      return new Map(
        jobs.filter((j) => retryIds.includes(j.messageId)).map((j) => [j.messageId, { retryAfterSeconds: 7 }]),
      );
    },
  });
  return getQueueResult(batch, ctx);
}

describe("handleJobBatch: ack and retry", () => {
  it("acks a batch with nothing to retry in one call, unknown shapes included", async () => {
    const r = await run([send("a", 1), send("b", 2), { ...send("c", 3), body: { v: 9 } as never }], []);
    expect(r).toMatchObject({ ackAll: true, retryBatch: { retry: false }, explicitAcks: [], retryMessages: [] });
  });

  it("retries only the jobs a handler asked to retry and acks the rest one by one", async () => {
    const r = await run([send("a", 1), send("b", 2), send("c", 3)], [2]);
    expect(r.ackAll).toBe(false);
    expect(r.retryMessages).toEqual([{ msgId: "b" }]); // getQueueResult does not report the delay
    expect([...r.explicitAcks].sort()).toEqual(["a", "c"]);
  });

  it("retries every job of a handler that threw, for later", async () => {
    const r = await run([send("a", 1), send("b", 2)], [], true);
    expect(r.ackAll).toBe(false);
    expect(r.retryMessages).toEqual([{ msgId: "a" }, { msgId: "b" }]);
    expect(r.explicitAcks).toEqual([]);
  });
});
