import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { jobQueue } from "./job-queue.server";

function recorder() {
  const sent: unknown[] = [];
  const q = {
    send: async (body: unknown) => void sent.push(body),
    sendBatch: async (msgs: Iterable<MessageSendRequest<unknown>>) => void sent.push(...[...msgs].map((m) => m.body)),
  } as unknown as Queue;
  return { q, sent };
}

describe("jobQueue", () => {
  it("puts sends on the send queue and every other job on the task queue, one sendBatch each", async () => {
    const jobs = recorder();
    const tasks = recorder();
    const queue = jobQueue({ JOBS: jobs.q, TASKS: tasks.q });
    await queue.send({ v: 1, type: "import-contacts", importId: 3 });
    await queue.send({ v: 1, type: "send", messageId: 1 });
    await queue.sendBatch([
      { body: { v: 1, type: "send", messageId: 2 } },
      { body: { v: 1, type: "inbound", messageId: 9 } },
      { body: { v: 1, type: "enroll-campaign", campaignId: 4, afterContactId: null } },
    ]);
    expect(jobs.sent).toEqual([
      { v: 1, type: "send", messageId: 1 },
      { v: 1, type: "send", messageId: 2 },
    ]);
    expect(tasks.sent).toEqual([
      { v: 1, type: "import-contacts", importId: 3 },
      { v: 1, type: "inbound", messageId: 9 },
      { v: 1, type: "enroll-campaign", campaignId: 4, afterContactId: null },
    ]);
  });

  it("is bound in wrangler.toml: both queues exist in the Worker's env", () => {
    expect(typeof env.JOBS.send).toBe("function");
    expect(typeof env.TASKS.send).toBe("function");
  });
});
