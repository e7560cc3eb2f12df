import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SEND_JOB_IDS, SEND_QUEUE_BATCH } from "./jobs";

/** A queue consumer's numeric setting in wrangler.toml (the file is the deploy's truth, so read it as deployed). */
function consumerSetting(queue: string, key: string) {
  const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
  const block = toml
    .split("[[queues.consumers]]")
    .slice(1)
    .map((b) => b.split(/^\[/m)[0])
    .find((b) => new RegExp(`^queue\\s*=\\s*"${queue}"`, "m").test(b));
  return Number(new RegExp(`^${key}\\s*=\\s*(\\d+)`, "m").exec(block ?? "")?.[1]);
}

describe("the send queue's batch (decision 081)", () => {
  it("hands the consumer SEND_QUEUE_BATCH jobs, so one invocation sends at most 100 texts", () => {
    expect(consumerSetting("helio-jobs", "max_batch_size")).toBe(SEND_QUEUE_BATCH);
    expect(SEND_QUEUE_BATCH * SEND_JOB_IDS).toBeLessThanOrEqual(100);
  });
});
