// wrangler.toml as wrangler itself reads it (decision 018): nothing that only works on one machine ships in it, and
// what production needs to fail loudly and stay inside one D1 database is there.
import { experimental_readRawConfig } from "wrangler";
import { describe, expect, it } from "vitest";
import { SEND_JOB_IDS, SEND_QUEUE_BATCH } from "~/jobs/jobs";
import { isPublicHttpsUrl } from "~/messaging/check-public-url.server";

type Vars = Record<string, unknown>;
type Consumer = { queue: string; max_concurrency?: number; max_batch_size?: number };
// The raw file as wrangler parsed it (its own types are loose here); only the fields read below.
const { rawConfig } = experimental_readRawConfig({
  config: new URL("../wrangler.toml", import.meta.url).pathname,
}) as unknown as {
  rawConfig: {
    vars?: Vars;
    env?: Record<string, { vars?: Vars }>;
    observability?: { enabled?: boolean; head_sampling_rate?: number };
    queues?: { consumers?: Consumer[]; producers?: { queue: string }[] };
  };
};

describe("wrangler.toml", () => {
  it("ships no loopback, private or http PUBLIC_BASE_URL and no made-up SALES_ALERT_EMAIL (or none at all)", () => {
    const all = [rawConfig.vars ?? {}, ...Object.values(rawConfig.env ?? {}).map((e) => e.vars ?? {})];
    for (const vars of all) {
      const url = vars.PUBLIC_BASE_URL;
      if (url !== undefined)
        expect(typeof url === "string" && isPublicHttpsUrl(url), `PUBLIC_BASE_URL = ${JSON.stringify(url)}`).toBe(true);
      const email = vars.SALES_ALERT_EMAIL;
      if (email !== undefined) expect(String(email)).not.toMatch(/\.(local|localhost|internal|test|invalid|example)$/i);
      // No other var points at this machine either.
      for (const [name, value] of Object.entries(vars))
        expect(String(value), name).not.toMatch(/\/\/(127\.|localhost|0\.0\.0\.0|\[::1\])/);
    }
  });

  it("has Workers Logs on, with a sampling rate that keeps every invocation", () => {
    expect(rawConfig.observability?.enabled).toBe(true);
    expect(rawConfig.observability?.head_sampling_rate ?? 1).toBe(1);
  });

  it("bounds every queue consumer's concurrency (one single-threaded D1 behind them all), and consumes every queue it produces to", () => {
    const consumers = rawConfig.queues?.consumers ?? [];
    expect(consumers.map((c) => c.queue).sort()).toEqual(["helio-jobs", "helio-jobs-dlq", "helio-tasks"]);
    for (const c of consumers) {
      expect(Number.isInteger(c.max_concurrency), c.queue).toBe(true);
      expect(c.max_concurrency, c.queue).toBeGreaterThanOrEqual(1);
      expect(c.max_concurrency, c.queue).toBeLessThanOrEqual(10);
    }
    const byQueue = Object.fromEntries(consumers.map((c) => [c.queue, c.max_concurrency]));
    expect(byQueue["helio-jobs-dlq"]).toBe(1);
    for (const p of rawConfig.queues?.producers ?? []) expect(byQueue[p.queue], p.queue).toBeDefined();
  });

  it("hands the send consumer SEND_QUEUE_BATCH jobs, so one invocation sends at most 100 texts (decision 081)", () => {
    const send = rawConfig.queues?.consumers?.find((c) => c.queue === "helio-jobs");
    expect(send?.max_batch_size).toBe(SEND_QUEUE_BATCH);
    expect(SEND_QUEUE_BATCH * SEND_JOB_IDS).toBeLessThanOrEqual(100);
  });
});
