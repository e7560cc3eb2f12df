// Runs the real Helio Worker (the bundle `wrangler deploy` would upload) in Miniflare, without `wrangler dev`'s
// proxy (see /work/shared/TOOLCHAIN.md: it runs out of fds under thousands of outbound fetches).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Log, LogLevel, Miniflare } from "miniflare";
import { startFakeTwilio } from "../../tests/fakes/fake-twilio.mjs";
import { hashPassword } from "../../app/auth/password-hash.js";
import { firstNameFor, phoneFor } from "./recipients.mjs";
import { workerdPids } from "./util.mjs";

export const root = fileURLToPath(new URL("../..", import.meta.url));
const offlineEnv = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  NO_UPDATE_NOTIFIER: "1",
};

/** The queues as wrangler.toml declares them: sends, and every other job (app/jobs/job-queue.server.ts). */
export const QUEUE = "helio-jobs";
export const TASK_QUEUE = "helio-tasks";
/** A queue's consumer settings as wrangler.toml declares them, so the bench delivers batches the way the app is configured. */
function consumerConfig(queue) {
  const toml = readFileSync(join(root, "wrangler.toml"), "utf8");
  const block = toml
    .split("[[queues.consumers]]")
    .slice(1)
    .map((b) => b.split(/^\[/m)[0])
    .find((b) => new RegExp(`^queue\\s*=\\s*"${queue}"`, "m").test(b));
  if (!block) throw new Error(`wrangler.toml has no consumer for ${queue}`);
  const num = (key) => Number(new RegExp(`^${key}\\s*=\\s*(\\d+)`, "m").exec(block)?.[1]);
  return {
    maxBatchSize: num("max_batch_size"),
    maxBatchTimeout: num("max_batch_timeout"),
    maxRetries: num("max_retries"),
    deadLetterQueue: /^dead_letter_queue\s*=\s*"([^"]+)"/m.exec(block)?.[1],
  };
}
export const QUEUE_CONSUMER = consumerConfig(QUEUE);
/** How many texts one send job names (app/jobs/jobs.ts, decision 081): the bench enqueues and counts as the app does. */
export const SEND_JOB_IDS = Number(
  /^export const SEND_JOB_IDS = (\d+);/m.exec(readFileSync(join(root, "app/jobs/jobs.ts"), "utf8"))?.[1],
);
if (!SEND_JOB_IDS) throw new Error("app/jobs/jobs.ts: SEND_JOB_IDS not found");
/** The texts one send-consumer invocation gets: max_batch_size jobs of SEND_JOB_IDS each. */
export const SENDS_PER_INVOCATION = QUEUE_CONSUMER.maxBatchSize * SEND_JOB_IDS;
export const TASK_QUEUE_CONSUMER = consumerConfig(TASK_QUEUE);
export const MF_BASE = {
  cf: false,
  compatibilityDate: "2026-04-26",
  compatibilityFlags: ["nodejs_compat"],
  log: new Log(LogLevel.WARN),
};

/** Modules a wrapper entry imports besides ./app.js, copied beside it (and listed for Miniflare by startHelio). */
const WRAPPER_MODULES = { "d1-apart-worker.js": ["remote-d1.js"] };

/**
 * remix build (only when missing) + wrangler's dry-run bundle: one self-contained ESM file. Returns its path.
 * `appDir` may be a scratch copy of the project (node_modules symlinked) to measure a change without touching it.
 */
export function bundleWorker(
  outDir,
  { profile = false, wrapper = profile ? "profiled-worker.js" : null, appDir = root } = {},
) {
  // A development build (React's jsxDEV, from a dev server or a test run) answers every page with a 500 in the bundle.
  const server = join(appDir, "build/server/index.js");
  if (!existsSync(server) || readFileSync(server, "utf8").includes("jsxDEV")) {
    execFileSync(process.execPath, [join(root, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
      cwd: appDir,
      stdio: ["ignore", "pipe", "inherit"],
      env: offlineEnv,
    });
  }
  execFileSync(
    process.execPath,
    [join(root, "node_modules/wrangler/bin/wrangler.js"), "deploy", "--dry-run", "--outdir", outDir],
    {
      cwd: appDir,
      env: offlineEnv,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const js = readdirSync(outDir).filter((f) => f.endsWith(".js"));
  if (js.length !== 1) throw new Error(`expected one bundled .js in ${outDir}, found ${js.join(", ") || "none"}`);
  if (js[0] !== "app.js") copyFileSync(join(outDir, js[0]), join(outDir, "app.js"));
  if (!wrapper) return join(outDir, "app.js");
  // A bench-only entry that imports ./app.js (profiled-worker.js, heap-probe-worker.js), and the modules it imports.
  copyFileSync(fileURLToPath(new URL(`./${wrapper}`, import.meta.url)), join(outDir, "entry.js"));
  for (const module of WRAPPER_MODULES[wrapper] ?? [])
    copyFileSync(fileURLToPath(new URL(`./${module}`, import.meta.url)), join(outDir, module));
  return join(outDir, "entry.js");
}

/**
 * A fresh Helio: its own D1 directory, the queue as in wrangler.toml, Twilio pointed at one fake account. Pushes
 * its own cleanups (dispose, then remove the D1 directory) onto `cleanups`, which run last-in first-out.
 * @param {{ scriptPath: string, twilio: { url: string, accountSid: string, authToken: string }, from: string, rate: number,
 *   cleanups: Array<() => Promise<unknown>>, bindings?: object, mfOptions?: object }} o  (bindings: extra vars, e.g. the
 *   profiling wrapper's BENCH_IN_PROCESS_TWILIO; mfOptions: extra Miniflare options, e.g. handleRuntimeStdio;
 *   persist: an existing D1 directory to open instead of a fresh one — the caller removes it)
 */
export async function startHelio({
  scriptPath,
  twilio,
  from,
  rate,
  cleanups,
  bindings = {},
  mfOptions = {},
  persist,
  d1Apart = false,
}) {
  if (!persist) {
    persist = mkdtempSync(join(tmpdir(), "helio-bench-d1-"));
    cleanups.push(async () => rmSync(persist, { recursive: true, force: true }));
  }
  // d1Apart: the database in a workerd process of its own, Helio's entry the d1-apart wrapper (bundleWorker's
  // `wrapper: "d1-apart-worker.js"`) forwarding every statement to it — production's shape, where D1's SQLite does
  // not run on the Worker's thread.
  let host = null;
  let d1Pids = [];
  if (d1Apart) {
    let url;
    ({ host, url, pids: d1Pids } = await startD1Host(persist));
    cleanups.push(() => host.dispose());
    bindings = { ...bindings, BENCH_D1_URL: url };
  }
  const modulesRoot = join(scriptPath, "..");
  const mf = new Miniflare({
    ...MF_BASE,
    modulesRoot,
    // Listed by hand: the bundle contains a dynamic import(), which Miniflare's module walker refuses. The
    // profiling wrapper (first, so it is the entry) imports ./app.js.
    modules: [
      ...new Set([
        scriptPath,
        join(modulesRoot, "app.js"),
        ...Object.values(WRAPPER_MODULES)
          .flat()
          .map((m) => join(modulesRoot, m))
          .filter((path) => existsSync(path)),
      ]),
    ].map((path) => ({ type: "ESModule", path })),
    ...(host ? {} : { d1Databases: { DB: "helio-bench" }, d1Persist: persist }),
    // The message archive's bucket (wrangler.toml), in memory: the cron tick's archive task finds nothing that old.
    r2Buckets: { ARCHIVE: "helio-archive", MEDIA: "helio-media" },
    queueProducers: { JOBS: { queueName: QUEUE }, TASKS: { queueName: TASK_QUEUE } },
    queueConsumers: { [QUEUE]: QUEUE_CONSUMER, [TASK_QUEUE]: TASK_QUEUE_CONSUMER },
    bindings: {
      APP_NAME: "Helio",
      SESSION_SECRET: "bench-session-secret-0123456789abcdef",
      // Nothing listens there: status callbacks are not part of this benchmark. A public https origin all the same:
      // with Twilio credentials a loopback one holds every send (decision 018).
      PUBLIC_BASE_URL: "https://helio-bench.example.com",
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM_NUMBER: from,
      TWILIO_API_BASE: twilio.url,
      SMS_RATE_PER_SECOND: String(rate),
      SMS_DAILY_CAP: "100000000",
      ...bindings,
    },
    ...mfOptions,
  });
  cleanups.push(() => mf.dispose());
  await mf.ready;
  const db = await (host ?? mf).getD1Database("DB");
  return { mf, db, persist, d1Pids };
}

/**
 * `--d1-apart`'s database: local D1 in a workerd process of its own (bench/lib/d1-host-worker.js), answering
 * bench/lib/remote-d1.js over HTTP. Returns the Miniflare (the caller disposes it), its URL and its workerd pids.
 */
export async function startD1Host(persist) {
  const before = new Set(workerdPids());
  const host = new Miniflare({
    ...MF_BASE,
    modules: true,
    scriptPath: fileURLToPath(new URL("./d1-host-worker.js", import.meta.url)),
    d1Databases: { DB: "helio-bench" },
    d1Persist: persist,
    host: "127.0.0.1",
    port: 0,
  });
  const url = String(await host.ready);
  return { host, url, pids: workerdPids().filter((pid) => !before.has(pid)) };
}

/** The sender every bench run's fake Twilio account sends from. */
export const BENCH_FROM = "+15017122661";

/**
 * A run against the fake Twilio: a fresh account on it and a Helio sending through that account. `depth` is where
 * this run's cleanups start (`while (cleanups.length > depth) await cleanups.pop()()` stops only what it started).
 */
export async function startHelioOnFake(fake, { rate = 100_000, cleanups, ...rest }) {
  // A fake in its own process answers over HTTP (bench/lib/fake-twilio-process.mjs).
  const account = await fake.createAccount();
  const depth = cleanups.length;
  // Released when the run's own cleanups run, after its checks read the account.
  cleanups.push(() => fake.removeAccount?.(account.accountSid));
  const h = await startHelio({
    twilio: { url: fake.url, accountSid: account.accountSid, authToken: account.authToken },
    from: BENCH_FROM,
    rate,
    cleanups,
    ...rest,
  });
  return { account, depth, h };
}

/** A Helio whose runs call no provider: the Twilio settings only have to be present (nothing listens there). */
export function startHelioWithoutProvider({ scriptPath, cleanups, mfOptions, persist }) {
  return startHelio({
    scriptPath,
    twilio: { url: "http://127.0.0.1:1", accountSid: "AC" + "0".repeat(32), authToken: "x".repeat(32) },
    from: "+15005550006",
    rate: 20,
    cleanups,
    mfOptions,
    persist,
  });
}

/** Every migrations/*.sql in order; each `--> statement-breakpoint` chunk is one statement (triggers included). */
export async function migrate(db) {
  const dir = join(root, "migrations");
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    const statements = readFileSync(join(dir, file), "utf8")
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter((s) => s.replace(/^--.*$/gm, "").trim());
    await db.batch(statements.map((s) => db.prepare(s)));
  }
}

export const BENCH_USER = { email: "bench@helio.test", password: "bench-password-1" };

/** The bench's superuser (cheap PBKDF2: the stored hash carries its iteration count); returns its id. */
export async function createBenchUser(db) {
  const t = Date.now();
  const hash = await hashPassword(BENCH_USER.password, 1000);
  await db
    .prepare(
      `INSERT INTO users (email, password_hash, first_name, last_name, role, is_active, login_count, created_at, updated_at)
       VALUES (?, ?, 'Bench', 'Runner', 'superuser', 1, 0, ?, ?)`,
    )
    .bind(BENCH_USER.email, hash, t, t)
    .run();
  return await db.prepare("SELECT id FROM users WHERE email = ?").bind(BENCH_USER.email).first("id");
}

/**
 * The bench's superuser and `count` contacts in `timeZone`, in Colorado (their 303 numbers' state): the federal
 * calling window, every day. A contact of unknown state gets the strictest rule, which keeps every state's Sunday ban
 * (decision 060), and no zone is between 09:00 and 19:00 on a weekday for most of a Sunday (UTC).
 */
export async function seed(db, count, timeZone) {
  const t = Date.now();
  await createBenchUser(db);
  // One JSON parameter per 1,000 contacts (D1 allows 100 bound parameters per statement).
  const insert = `INSERT INTO contacts (first_name, last_name, phone, state, time_zone, sendable, created_at, updated_at)
    SELECT json_extract(value, '$.f'), 'Bench', json_extract(value, '$.p'), 'CO', ?, 1, ?, ? FROM json_each(?)`;
  const statements = [];
  for (let i = 0; i < count; i += 1000) {
    const rows = [];
    for (let j = i; j < Math.min(i + 1000, count); j++) rows.push({ f: firstNameFor(j), p: phoneFor(j) });
    statements.push(db.prepare(insert).bind(timeZone, t, t, JSON.stringify(rows)));
  }
  if (statements.length) await db.batch(statements);
  const { results } = await db.prepare("SELECT id, phone FROM contacts ORDER BY id").all();
  if (results.length !== count) throw new Error(`seeded ${results.length} contacts, wanted ${count}`);
  return results;
}

/** One JSON /api call with the session cookie; throws on a status ≥ 300. */
export async function api(mf, cookie, method, path, body) {
  const res = await mf.dispatchFetch(`http://127.0.0.1${path}`, {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json", Cookie: cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Logs in through the API and returns the Cookie header value. */
export async function login(mf) {
  const res = await mf.dispatchFetch("http://127.0.0.1/api/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(BENCH_USER),
  });
  const cookie = res.headers.get("set-cookie")?.split(";")[0];
  if (res.status !== 200 || !cookie) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  return cookie;
}

export async function sendBroadcast(mf, cookie, body) {
  const res = await mf.dispatchFetch("http://127.0.0.1/api/messages/send-broadcast", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", Cookie: cookie },
    body: JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  if (res.status !== 202) throw new Error(`send-broadcast: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** One cron tick, as Cloudflare would run it (awaits the whole tick). */
export async function runCron(mf, scheduledTime = new Date()) {
  const worker = await mf.getWorker();
  return worker.scheduled({ cron: "* * * * *", scheduledTime });
}

export async function statusCounts(db, broadcastId) {
  const { results } = await db
    .prepare("SELECT status, count(*) AS n FROM messages WHERE broadcast_id = ? GROUP BY status")
    .bind(broadcastId)
    .all();
  return Object.fromEntries(results.map((r) => [r.status, r.n]));
}

/**
 * A bench's start: a temp folder, the Worker bundled into it, and a fake Twilio on loopback (both removed by
 * `cleanups`). Returns the bundle's path and the fake.
 */
export async function bundleAndFakeTwilio({ cleanups, log, appDir = root, wrapper = null }) {
  const tmp = mkdtempSync(join(tmpdir(), "helio-bench-"));
  cleanups.push(async () => rmSync(tmp, { recursive: true, force: true }));
  log("bundling the Worker (wrangler deploy --dry-run)…");
  if (appDir !== root) log(`measuring the app in ${appDir}`);
  const scriptPath = bundleWorker(join(tmp, "bundle"), { appDir, wrapper });
  const fake = await startFakeTwilio({
    accountSid: "AC" + randomBytes(16).toString("hex"),
    authToken: randomBytes(16).toString("hex"),
  });
  cleanups.push(() => fake.stop());
  return { scriptPath, fake };
}
