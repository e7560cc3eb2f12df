// The two reference points Helio's consumer is compared with, on the same fake Twilio in the same run.
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";
import { BENCH_FROM, MF_BASE, QUEUE, QUEUE_CONSUMER, SEND_JOB_IDS, SENDS_PER_INVOCATION } from "./helio.mjs";
import { phoneFor, renderedFor } from "./recipients.mjs";
import { median, waitUntil, workerdCpuMs } from "./util.mjs";

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
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  if (account.calls.length !== count)
    throw new Error(`node loop: fake recorded ${account.calls.length} calls, sent ${count}`);
  return { seconds, rate: count / seconds };
}

/** A ceiling's own Worker (a file beside bench/*.mjs) in its own Miniflare, disposed after `use` settles. */
async function withWorker(file, options, use) {
  const mf = new Miniflare({
    ...MF_BASE,
    modules: true,
    scriptPath: fileURLToPath(new URL(`../${file}`, import.meta.url)),
    ...options,
  });
  try {
    await mf.ready;
    return await use(mf);
  } finally {
    await mf.dispose();
  }
}

/** The bindings bench/bare-consumer.js and bench/worker-post-loop.js read to reach the fake Twilio account. */
const twilioBindings = ({ twilio, account, from }) => ({
  TWILIO_ACCOUNT_SID: account.accountSid,
  TWILIO_AUTH_TOKEN: account.authToken,
  TWILIO_FROM_NUMBER: from,
  TWILIO_API_BASE: twilio.url,
});

/**
 * Ceiling 2: bench/bare-consumer.js in its own Miniflare with the same queue settings; clock from the first enqueue
 * to the moment D1 shows every row sent.
 */
export async function bareConsumer({ twilio, account, from, count, timeoutMs, onProgress, maxInFlight = 0 }) {
  const persist = mkdtempSync(join(tmpdir(), "helio-bench-bare-"));
  const options = {
    d1Databases: { DB: "bare-bench" },
    d1Persist: persist,
    queueProducers: { JOBS: { queueName: QUEUE } },
    queueConsumers: { [QUEUE]: QUEUE_CONSUMER },
    bindings: { MAX_IN_FLIGHT: String(maxInFlight), ...twilioBindings({ twilio, account, from }) },
  };
  try {
    return await withWorker("bare-consumer.js", options, async (mf) => {
      const db = await mf.getD1Database("DB");
      await db.batch([
        db.prepare("CREATE TABLE m (id INTEGER PRIMARY KEY, status TEXT, sid TEXT)"),
        db
          .prepare(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO m (id, status) SELECT i, 'pending' FROM n",
          )
          .bind(count),
      ]);
      const sent = async () => (await db.prepare("SELECT count(*) AS n FROM m WHERE status = 'sent'").first("n")) ?? 0;
      const start = Date.now();
      const cpuBefore = workerdCpuMs();
      const res = await mf.dispatchFetch("http://127.0.0.1/enqueue", {
        method: "POST",
        body: JSON.stringify({ count }),
      });
      if (!res.ok) throw new Error(`bare consumer enqueue: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      const done = await waitUntil({
        start,
        timeoutMs,
        providerCalls: () => account.calls.length,
        expected: count,
        check: async () => ({ finished: (await sent()) === count }),
        onProgress: async (s) =>
          onProgress?.(
            `bare consumer: ${await sent()}/${count} sent, ${account.calls.length} POSTs, ${s.toFixed(0)} s`,
          ),
      });
      const seconds = (done - start) / 1000;
      const cpuMsPerMessage = (workerdCpuMs() - cpuBefore) / count;
      const sids = (await db.prepare("SELECT count(DISTINCT sid) AS n FROM m WHERE status = 'sent'").first("n")) ?? 0;
      return { seconds, rate: count / seconds, sids, calls: account.calls.length, cpuMsPerMessage };
    });
  } finally {
    rmSync(persist, { recursive: true, force: true });
  }
}

/**
 * Ceiling 3: the Node loop's POSTs (same recipients, same bytes) made by a Worker that does nothing else
 * (bench/worker-post-loop.js), `perInvocation` recipients per invocation — a queue batch's worth — invoked one after
 * another as Miniflare delivers queue batches, ≤ `concurrency` in flight. Wall clock over all invocations; workerd's
 * CPU per message over the same span.
 */
export async function workerPostLoop({
  twilio,
  account,
  from,
  count,
  concurrency = 6,
  perInvocation = SENDS_PER_INVOCATION,
}) {
  const bindings = { MAX_IN_FLIGHT: String(concurrency), ...twilioBindings({ twilio, account, from }) };
  return withWorker("worker-post-loop.js", { bindings }, async (mf) => {
    const batches = [];
    for (let i = 0; i < count; i += perInvocation)
      batches.push(
        JSON.stringify(
          Array.from({ length: Math.min(perInvocation, count - i) }, (_, k) => ({
            to: phoneFor(i + k),
            body: renderedFor(i + k),
          })),
        ),
      );
    const cpuBefore = workerdCpuMs();
    const start = performance.now();
    for (const body of batches) {
      const res = await mf.dispatchFetch("http://127.0.0.1/", { method: "POST", body });
      if (!res.ok) throw new Error(`worker POST loop: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
    const seconds = (performance.now() - start) / 1000;
    const cpuMsPerMessage = (workerdCpuMs() - cpuBefore) / count;
    if (account.calls.length !== count)
      throw new Error(`worker POST loop: fake recorded ${account.calls.length} calls, sent ${count}`);
    return { seconds, rate: count / seconds, cpuMsPerMessage, concurrency, perInvocation };
  });
}

/**
 * Ceiling 4: the queue alone (bench/queue-only.js): `count` messages' send jobs as Helio enqueues them (SEND_JOB_IDS
 * to a job, 100 jobs per sendBatch) acked by a consumer that does nothing else, with Helio's batch settings. From the
 * enqueue request to the last ack.
 */
export async function queueOnly({ count }) {
  const options = { queueProducers: { JOBS: { queueName: QUEUE } }, queueConsumers: { [QUEUE]: QUEUE_CONSUMER } };
  return withWorker("queue-only.js", options, async (mf) => {
    const cpuBefore = workerdCpuMs();
    const start = Date.now();
    const res = await mf.dispatchFetch("http://127.0.0.1/enqueue", {
      method: "POST",
      body: JSON.stringify({ count, perJob: SEND_JOB_IDS }),
    });
    if (!res.ok) throw new Error(`queue only: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    let stats = { acked: 0, lastAckAt: 0 };
    const deadline = start + 120_000;
    while (stats.acked < count) {
      if (Date.now() > deadline) throw new Error(`queue only: ${stats.acked}/${count} acked after 120 s`);
      await new Promise((r) => setTimeout(r, 20));
      stats = await (await mf.dispatchFetch("http://127.0.0.1/stats")).json();
    }
    const seconds = (stats.lastAckAt - start) / 1000;
    return { seconds, rate: count / seconds, cpuMsPerMessage: (workerdCpuMs() - cpuBefore) / count };
  });
}

/** Issue 15's dispatch budgets: ≥ 150% of the bare consumer and ≥ 50% of the plain Node loop at 6 in flight. */
// Issue 22: dispatch is held against the minimal Worker making the same POSTs in the same run (a ceiling inside the
// same runtime); the plain Node loop measures Node, not Helio, and is still printed beside it (dispatchShares).
export const DISPATCH_BUDGETS = { vsBare: 1.5, vsWorker: 0.5, vsLoop6: 0.5 };

/** What a dispatch run (msgs/s) misses of those budgets, beside the ceilings measured in the same run. */
export function dispatchBudgetFailures(rate, { bare, workerLoop }) {
  const pct = (x) => Math.round(100 * x);
  const out = [];
  if (bare && rate / bare.rate < DISPATCH_BUDGETS.vsBare)
    out.push(
      `budget: ${pct(rate / bare.rate)}% of the bare consumer, budget ≥ ${pct(DISPATCH_BUDGETS.vsBare)}% (short by ${pct(DISPATCH_BUDGETS.vsBare - rate / bare.rate)} points)`,
    );
  if (workerLoop && rate / workerLoop.rate < DISPATCH_BUDGETS.vsWorker)
    out.push(
      `budget: ${pct(rate / workerLoop.rate)}% of the minimal Worker making the same POSTs, budget ≥ ${pct(DISPATCH_BUDGETS.vsWorker)}% (short by ${pct(DISPATCH_BUDGETS.vsWorker - rate / workerLoop.rate)} points)`,
    );
  return out;
}

/**
 * Where a dispatch rate stands against the Node loop and the minimal Worker, and what the rest of the consumer would
 * have to cost for the ≥ 50% budget. Locally one workerd thread runs the Worker's JavaScript, D1's SQLite and the
 * runtime's I/O, and dispatch keeps it busy, so the costs per message add: 1/rate ≈ 1/noNetwork + 1/workerLoop.
 */
export function dispatchShares(rate, { loop6, workerLoop, noNetwork, queue }) {
  const pct = (x) => `${(100 * x).toFixed(0)}%`;
  const n = (x) => Math.round(x).toLocaleString("en-US");
  const lines = [
    `Share of the Node loop at 6 in flight: Helio ${pct(rate / loop6.rate)}, minimal Worker ${pct(workerLoop.rate / loop6.rate)}; Helio / minimal Worker ${pct(rate / workerLoop.rate)}`,
  ];
  if (noNetwork) {
    const predicted = 1 / (1 / noNetwork.rate + 1 / workerLoop.rate);
    const target = DISPATCH_BUDGETS.vsLoop6 * loop6.rate;
    const room = 1 / target - 1 / workerLoop.rate;
    lines.push(
      `Costs add on one thread: 1 / (1/${n(noNetwork.rate)} + 1/${n(workerLoop.rate)}) = ${n(predicted)} msgs/s predicted, ${n(rate)} measured. ` +
        (room > 0
          ? `${pct(DISPATCH_BUDGETS.vsLoop6)} of the loop (${n(target)} msgs/s) needs everything but the POSTs at ≥ ${n(1 / room)} msgs/s, ${(1 / room / noNetwork.rate).toFixed(1)}× today's ${n(noNetwork.rate)}` +
            (queue
              ? `; the queue alone runs at ${n(queue.rate)} msgs/s, which leaves ${(100 * (room - 1 / queue.rate) * 1000).toFixed(1)} ms per 100-message batch for D1 and the consumer's JavaScript (today ${(100 * (1 / noNetwork.rate - 1 / queue.rate) * 1000).toFixed(1)} ms).`
              : ".")
          : `${pct(DISPATCH_BUDGETS.vsLoop6)} of the loop (${n(target)} msgs/s) is above the minimal Worker itself: no consumer can reach it here.`),
    );
  }
  return lines.join("\n");
}

/**
 * `use` on a new account of the in-process fake Twilio, which then forgets it and what it recorded: a bench makes one
 * per run, and kept, their records grow the fake's heap and slow its later answers (decision 080).
 */
export async function onFreshAccount(twilio, use) {
  const account = twilio.createAccount();
  try {
    return await use(account);
  } finally {
    twilio.removeAccount(account.accountSid);
  }
}

/**
 * Ceilings 1 and 3 as broadcast.mjs and campaign.mjs run them: each on a fresh account of the fake Twilio `twilio`,
 * from BENCH_FROM, logged in the words both reports use.
 */
export async function nodeLoopOnFake(twilio, count, concurrency, log) {
  const r = await onFreshAccount(twilio, (account) =>
    nodeLoop({ twilio, account, from: BENCH_FROM, count, concurrency }),
  );
  log(`Node loop, ${concurrency} in flight: ${r.rate.toFixed(0)} msgs/s`);
  return r;
}

export async function workerPostLoopOnFake(twilio, count, log) {
  const r = await onFreshAccount(twilio, (account) =>
    workerPostLoop({ twilio, account, from: BENCH_FROM, count, concurrency: 6 }),
  );
  log(`minimal Worker, the same POSTs, 6 in flight: ${r.rate.toFixed(0)} msgs/s`);
  return r;
}

/**
 * The dispatch budget's two sides, measured `rounds` times one after the other (the first pair already run), compared
 * by their medians: on these machines one pair moves the ratio by ±6 points either way. Every round is returned.
 */
export async function alternatingRounds({ first, rounds, helio, worker, log }) {
  const all = [first];
  for (let r = 2; r <= rounds; r++) {
    const h = await helio(r);
    const w = await worker();
    all.push({ helio: h.rate, worker: w.rate, check: h.check });
    log(`round ${r}: Helio ${h.rate.toFixed(0)} msgs/s, minimal Worker ${w.rate.toFixed(0)} msgs/s`);
  }
  const pct = (x) => `${Math.round(100 * x)}%`;
  const n = (x) => Math.round(x).toLocaleString("en-US");
  const helioRate = median(all.map((r) => r.helio));
  const workerRate = median(all.map((r) => r.worker));
  return {
    rounds: all,
    helio: helioRate,
    worker: workerRate,
    summary:
      `Rounds, Helio / minimal Worker (msgs/s): ${all.map((r) => `${n(r.helio)} / ${n(r.worker)} (${pct(r.helio / r.worker)})`).join("; ")}` +
      ` → medians ${n(helioRate)} / ${n(workerRate)} (${pct(helioRate / workerRate)}), what the budget compares`,
  };
}
