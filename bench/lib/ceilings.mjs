// The two reference points Helio's consumer is compared with, on the same fake Twilio in the same run.
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";
import { MF_BASE, QUEUE, QUEUE_CONSUMER } from "./helio.mjs";
import { phoneFor, renderedFor } from "./recipients.mjs";
import { waitUntil, workerdCpuMs } from "./util.mjs";

/** Ceiling 1: `count` form-encoded POSTs from plain Node, keep-alive, `concurrency` requests in flight. */
export async function nodeLoop({ twilio, account, from, count, concurrency }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const url = new URL(`${twilio.url}/2010-04-01/Accounts/${account.accountSid}/Messages.json`);
  const authorization = "Basic " + Buffer.from(`${account.accountSid}:${account.authToken}`).toString("base64");
  const post = (i) =>
    new Promise((resolve, reject) => {
      const body = new URLSearchParams({ To: phoneFor(i), From: from, Body: renderedFor(i) }).toString();
      const req = http.request(url, {
        method: "POST",
        agent,
        headers: {
          Authorization: authorization,
          "Content-Type": "application/x-www-form-urlencoded",
          Accept: "application/json",
          "Content-Length": Buffer.byteLength(body),
        },
      });
      req.on("response", (res) => {
        res.resume(); // drain so the socket goes back to the pool
        res.on("end", () => (res.statusCode === 201 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      });
      req.on("error", reject);
      req.end(body);
    });
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await post(next++);
    })
  );
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  if (account.calls.length !== count) throw new Error(`node loop: fake recorded ${account.calls.length} calls, sent ${count}`);
  return { seconds, rate: count / seconds };
}

/**
 * Ceiling 2: bench/bare-consumer.js in its own Miniflare with the same queue settings; clock from the first enqueue
 * to the moment D1 shows every row sent.
 */
export async function bareConsumer({ twilio, account, from, count, timeoutMs, onProgress, maxInFlight = 0 }) {
  const persist = mkdtempSync(join(tmpdir(), "helio-bench-bare-"));
  let mf = null;
  try {
    mf = new Miniflare({
      ...MF_BASE,
      modules: true,
      scriptPath: fileURLToPath(new URL("../bare-consumer.js", import.meta.url)),
      d1Databases: { DB: "bare-bench" },
      d1Persist: persist,
      queueProducers: { JOBS: { queueName: QUEUE } },
      queueConsumers: { [QUEUE]: QUEUE_CONSUMER },
      bindings: {
        MAX_IN_FLIGHT: String(maxInFlight),
        TWILIO_ACCOUNT_SID: account.accountSid,
        TWILIO_AUTH_TOKEN: account.authToken,
        TWILIO_FROM_NUMBER: from,
        TWILIO_API_BASE: twilio.url,
      },
    });
    const db = await mf.getD1Database("DB");
    await db.batch([
      db.prepare("CREATE TABLE m (id INTEGER PRIMARY KEY, status TEXT, sid TEXT)"),
      db
        .prepare(
          "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO m (id, status) SELECT i, 'pending' FROM n"
        )
        .bind(count),
    ]);
    const sent = async () => (await db.prepare("SELECT count(*) AS n FROM m WHERE status = 'sent'").first("n")) ?? 0;
    const start = Date.now();
    const cpuBefore = workerdCpuMs();
    const res = await mf.dispatchFetch("http://127.0.0.1/enqueue", { method: "POST", body: JSON.stringify({ count }) });
    if (!res.ok) throw new Error(`bare consumer enqueue: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    const done = await waitUntil({
      start,
      timeoutMs,
      providerCalls: () => account.calls.length,
      expected: count,
      check: async () => ({ finished: (await sent()) === count }),
      onProgress: async (s) =>
        onProgress?.(`bare consumer: ${await sent()}/${count} sent, ${account.calls.length} POSTs, ${s.toFixed(0)} s`),
    });
    const seconds = (done - start) / 1000;
    const cpuMsPerMessage = (workerdCpuMs() - cpuBefore) / count;
    const sids = (await db.prepare("SELECT count(DISTINCT sid) AS n FROM m WHERE status = 'sent'").first("n")) ?? 0;
    return { seconds, rate: count / seconds, sids, calls: account.calls.length, cpuMsPerMessage };
  } finally {
    await mf?.dispose();
    rmSync(persist, { recursive: true, force: true });
  }
}

/** Issue 15's dispatch budgets: ≥ 150% of the bare consumer and ≥ 50% of the plain Node loop at 6 in flight. */
export const DISPATCH_BUDGETS = { vsBare: 1.5, vsLoop6: 0.5 };

/** What a dispatch run (msgs/s) misses of those budgets, beside the ceilings measured in the same run. */
export function dispatchBudgetFailures(rate, { bare, loop6 }) {
  const pct = (x) => Math.round(100 * x);
  const out = [];
  if (bare && rate / bare.rate < DISPATCH_BUDGETS.vsBare)
    out.push(`budget: ${pct(rate / bare.rate)}% of the bare consumer, budget ≥ ${pct(DISPATCH_BUDGETS.vsBare)}% (short by ${pct(DISPATCH_BUDGETS.vsBare - rate / bare.rate)} points)`);
  if (loop6 && rate / loop6.rate < DISPATCH_BUDGETS.vsLoop6)
    out.push(`budget: ${pct(rate / loop6.rate)}% of the Node loop at 6 in flight, budget ≥ ${pct(DISPATCH_BUDGETS.vsLoop6)}% (short by ${pct(DISPATCH_BUDGETS.vsLoop6 - rate / loop6.rate)} points)`);
  return out;
}
