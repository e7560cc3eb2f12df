import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The middle value (the mean of the two middle ones for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/**
 * A bench script's shared frame: `log` prefixes the seconds since the start, `loadAtStart` is the machine's load
 * then, and `cleanups` (stop a server, remove a folder…) run last first by `cleanup`, at the end or on Ctrl-C.
 */
export function benchSession() {
  const t0 = performance.now();
  const log = (...a) => console.error(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s]`, ...a);
  const loadAtStart = os.loadavg();
  const cleanups = [];
  const cleanup = async () => {
    while (cleanups.length)
      await cleanups
        .pop()()
        .catch((e) => console.error("cleanup:", e?.message ?? e));
  };
  process.once("SIGINT", () => cleanup().finally(() => process.exit(130)));
  return { t0, log, loadAtStart, cleanups, cleanup };
}

/**
 * Waits for a run to finish and returns the epoch ms at which it was seen finished. The fake's in-process call count
 * is free to read, so D1 (which the run itself is busy writing) is only asked often once every POST has arrived.
 * @param {{ start: number, timeoutMs: number, providerCalls: () => number, expected: number,
 *   check: () => Promise<{ finished: boolean }>, onProgress?: (seconds: number) => unknown }} o
 */
export async function waitUntil({ start, timeoutMs, providerCalls, expected, check, onProgress }) {
  let lastCheck = Date.now();
  let lastProgress = Date.now();
  for (;;) {
    const now = Date.now();
    if (providerCalls() >= expected || now - lastCheck >= 2000) {
      lastCheck = now;
      if ((await check()).finished) return Date.now();
    }
    if (now - start > timeoutMs) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s`);
    if (onProgress && now - lastProgress >= 5000) {
      lastProgress = now;
      await onProgress((now - start) / 1000);
    }
    await sleep(20);
  }
}

/** This process and every process below it, from /proc (pid → its stat fields after the command name, and its name). */
function descendants() {
  const procs = new Map();
  for (const p of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      procs.set(Number(p), {
        name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
        fields: stat.slice(stat.lastIndexOf(")") + 2).split(" "),
      });
    } catch {}
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, p] of procs)
      if (mine.has(Number(p.fields[1])) && !mine.has(pid)) {
        mine.add(pid);
        grew = true;
      }
  }
  return [...mine].flatMap((pid) => (procs.has(pid) ? [{ pid, ...procs.get(pid) }] : []));
}

/**
 * CPU milliseconds (user + system) the workerd processes below this one have used so far. The difference across a
 * run is what Miniflare's runtime spent on it: the Worker's JavaScript, and also local D1's SQLite and the runtime's
 * own I/O, which production does not bill to the Worker — so it is an upper bound on billed CPU.
 */
export function workerdCpuMs(pids = null) {
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  return workerds()
    .filter((p) => !pids || pids.includes(p.pid))
    .reduce((sum, p) => sum + (Number(p.fields[11]) + Number(p.fields[12])) * tick, 0);
}

/** The workerd processes this process started, by pid (to tell one Miniflare's apart: the pids new after it starts). */
export function workerdPids() {
  return workerds().map((p) => p.pid);
}

const workerds = () => descendants().filter((p) => p.name.startsWith("workerd"));

/** Open fds of this process and every process it started (workerd), to catch leaks such as CLOSE_WAIT piles. */
export function fdStats() {
  const mine = descendants();
  let fds = 0;
  for (const { pid } of mine) {
    try {
      fds += readdirSync(`/proc/${pid}/fd`).length;
    } catch {}
  }
  return { processes: mine.length, fds };
}

/** TCP sockets touching `port` on loopback, by state (from /proc/net/tcp{,6}). */
export function socketStates(port) {
  const names = {
    "01": "ESTABLISHED",
    "06": "TIME_WAIT",
    "08": "CLOSE_WAIT",
    "04": "FIN_WAIT1",
    "05": "FIN_WAIT2",
    "0A": "LISTEN",
  };
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  const out = {};
  for (const f of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(f, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 4) continue;
      if (!cols[1].endsWith(`:${hex}`) && !cols[2].endsWith(`:${hex}`)) continue;
      const s = names[cols[3]] ?? cols[3];
      out[s] = (out[s] ?? 0) + 1;
    }
  }
  return out;
}

/** `--key value` / `--flag` arguments (the same parser as the scripts'). */
export { parseArgs as parseFlags } from "../../scripts/lib/d1.mjs";

/** `--<name>` as a whole number from 1 to `max` (`fallback` when it is absent); an Error naming the flag otherwise. */
export function countFlag(flags, name, fallback, max) {
  const n = Number(flags[name] ?? fallback);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} must be an integer from 1 to ${max}`);
  return n;
}

/** Gaps between consecutive provider calls: in-batch spacing vs the pauses between batches. */
export function interArrival(ats) {
  const sorted = [...ats].sort((a, b) => a - b);
  const gaps = sorted
    .slice(1)
    .map((t, i) => t - sorted[i])
    .sort((a, b) => a - b);
  const pct = (p) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))] ?? 0;
  const long = gaps.filter((g) => g >= 10);
  return {
    p50: pct(0.5),
    p90: pct(0.9),
    p99: pct(0.99),
    max: gaps.at(-1) ?? 0,
    longGaps: long.length,
    longGapMs: long.reduce((a, b) => a + b, 0),
    spanMs: (sorted.at(-1) ?? 0) - (sorted[0] ?? 0),
  };
}

/**
 * Runs a benchmark's main(), then its cleanup, and lets the process end by itself: Miniflare deletes its temp
 * directory after dispose() without awaiting it, and an immediate process.exit() would leave it behind. The unref'd
 * timer only fires if something still holds the loop. main() resolves to the exit code; a throw exits 2.
 */
export function runBench(main, cleanup) {
  const finish = (code) => {
    process.exitCode = code;
    setTimeout(() => process.exit(code), 10_000).unref();
  };
  main()
    .then(async (code) => {
      await cleanup();
      finish(code);
    })
    .catch(async (err) => {
      console.error(err);
      await cleanup();
      finish(2);
    });
}

/** A report's last two lines: the load average at start and end (a shared machine), and the machine, code and time. */
export function benchFooter({ t0, loadAtStart, root }) {
  let git = "";
  try {
    git = execFileSync("git", ["-C", root, "log", "-1", "--format=%h %s"], { encoding: "utf8" }).trim().slice(0, 80);
  } catch {}
  const loads = (l) => l.map((x) => x.toFixed(1)).join(" ");
  return [
    `Load average at start ${loads(loadAtStart)}, at end ${loads(os.loadavg())} (shared machine)`,
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, Node ${process.version}; code ${git}. Whole bench: ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  ];
}
