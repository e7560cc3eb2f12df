#!/usr/bin/env node
// `npm run bench`: every benchmark in one run (issue 15). Each prints its figures beside the ceilings it measures in
// the same run and exits non-zero when one of its budgets fails; this adds the bytes a deploy ships, then writes
// bench/RESULTS.md (figures, machine, load average, commit) and exits 1 when any budget failed, saying which and by
// how much. Each benchmark also runs alone (npm run bench:screens, bench:broadcast, bench:campaign, bench:contacts, bench:spreadsheet,
// bench:leads).
//   node bench/run.mjs [--only screens,broadcast,…] [--quick]   (--quick: smaller runs, for trying the suite out)
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { routeJsBytes, workerBundleBytes } from "./lib/bytes.mjs";
import { bundleWorker, root } from "./lib/helio.mjs";
import { parseFlags } from "./lib/util.mjs";

const flags = parseFlags(process.argv.slice(2));
const quick = Boolean(flags.quick);
const BENCHES = {
  screens: [
    "bench/screens.mjs",
    ...(quick ? ["--contacts", "20000", "--scales", "200000,400000", "--requests", "30"] : []),
  ],
  broadcast: ["bench/broadcast.mjs", ...(quick ? ["--count", "2000", "--paced-count", "200"] : [])],
  campaign: ["bench/campaign.mjs", ...(quick ? ["--count", "2000", "--big", "20000"] : [])],
  contacts: ["bench/contacts-import.mjs"],
  events: ["bench/events.mjs", ...(quick ? ["--scales", "10000,200000", "--repeat", "3"] : [])],
  spreadsheet: ["bench/spreadsheet-import.mjs", ...(quick ? ["--mb", "2"] : [])],
  leads: ["bench/leads.mjs", ...(quick ? ["--count", "200"] : [])],
};
const only = flags.only ? String(flags.only).split(",") : Object.keys(BENCHES);
const KB = 1024;
const SUMMARY_LINES = 40;
// eslint-disable-next-line no-control-regex -- terminal colour codes in a child's output
const ANSI = /\u001b\[[0-9;]*m/g;
const BUDGETS = { workerGzip: 1024 * KB, loginJsGzip: 100 * KB };

function run(name, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...(quick && name === "contacts" ? { ROWS: "20000", SAMPLES: "50" } : {}) },
    });
    let output = "";
    const take = (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("close", (code) => resolve({ name, code: code ?? 2, output, seconds: (Date.now() - started) / 1000 }));
  });
}

const loadAtStart = loadavg();
const results = [];
const failures = [];

// Bytes: the bundle wrangler would upload, and what the browser loads for a first visit to each route.
const out = mkdtempSync(join(tmpdir(), "helio-bytes-"));
try {
  execFileSync(process.execPath, [join(root, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
    cwd: root,
    stdio: "ignore",
  });
  bundleWorker(out);
  const worker = workerBundleBytes(out);
  const routes = routeJsBytes(root);
  // The login screen's route id (routes sit in folders by access, decision 032); missing is an error, never NaN.
  const loginId = Object.keys(routes).find((id) => /^routes\/(?:[^/]+\/)*login$/.test(id));
  if (!loginId) throw new Error("no login route in the client manifest");
  const login = routes[loginId];
  const heaviest = Object.entries(routes)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3);
  const lines = [
    `Worker bundle: ${(worker / KB).toFixed(1)} KB gzipped (budget ≤ ${BUDGETS.workerGzip / KB} KB): ${worker <= BUDGETS.workerGzip ? "OK" : "FAIL"}`,
    `JavaScript for the login route: ${(login / KB).toFixed(1)} KB gzipped, manifest included (budget ≤ ${BUDGETS.loginJsGzip / KB} KB): ${login <= BUDGETS.loginJsGzip ? "OK" : `FAIL, over by ${((login - BUDGETS.loginJsGzip) / KB).toFixed(1)} KB`}`,
    `Heaviest routes: ${heaviest.map(([id, b]) => `${id} ${(b / KB).toFixed(1)} KB`).join(", ")}`,
  ];
  console.log(lines.join("\n"));
  if (worker > BUDGETS.workerGzip)
    failures.push(`bytes: Worker bundle over by ${((worker - BUDGETS.workerGzip) / KB).toFixed(1)} KB`);
  if (login > BUDGETS.loginJsGzip)
    failures.push(`bytes: login route JavaScript over by ${((login - BUDGETS.loginJsGzip) / KB).toFixed(1)} KB`);
  results.push({
    name: "bytes",
    code: worker <= BUDGETS.workerGzip && login <= BUDGETS.loginJsGzip ? 0 : 1,
    output: lines.join("\n"),
    seconds: 0,
  });
} finally {
  rmSync(out, { recursive: true, force: true });
}

for (const name of only) {
  if (!BENCHES[name]) continue;
  console.log(`\n=== ${name} ===`);
  const r = await run(name, BENCHES[name]);
  results.push(r);
  // A budget is missed when the benchmark exits non-zero or prints a goal as NOT MET / FAIL.
  const flagged = r.output
    .replace(ANSI, "")
    .split("\n")
    .filter((l) => /NOT MET|FAIL|LOST ROWS/.test(l))
    .map((l) => l.trim().replace(/\s+/g, " ").slice(0, 200));
  // A benchmark's own FAILED summary already names each budget its NOT MET lines name.
  const summary = flagged.filter((l) => l.startsWith("FAILED:"));
  const missed = summary.length ? summary : flagged;
  if (r.code !== 0 || missed.length) {
    r.code = r.code || 1;
    failures.push(`${name}: ${missed.length ? missed.join(" / ") : `exit ${r.code}`}`);
  }
}

let commit = "";
try {
  commit = execFileSync("git", ["-C", root, "log", "-1", "--format=%h %s"], { encoding: "utf8" }).trim();
} catch {}
const md = [
  "# Benchmark results (`npm run bench`)",
  "",
  `- When: ${new Date().toISOString()}${quick ? " (--quick: smaller runs)" : ""}`,
  `- Machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
  `- Load average: ${loadAtStart.map((l) => l.toFixed(2)).join(" ")} at start, ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} at end`,
  `- Commit: ${commit}`,
  "",
  "Every figure sits beside a ceiling measured in the same run; compare within a run, not across runs.",
  "",
  "| benchmark | result | seconds |",
  "| --- | --- | ---: |",
  ...results.map(
    (r) =>
      `| ${r.name} | ${r.code === 0 ? "every budget holds" : `FAILED (exit ${r.code})`} | ${r.seconds.toFixed(0)} |`,
  ),
  "",
  failures.length ? `**Budgets failed:** ${failures.join("; ")}` : "**Every budget holds.**",
  "",
  // Each benchmark's summary (its last lines: the tables and verdicts; progress lines are left out).
  ...results.flatMap((r) => [
    `## ${r.name}`,
    "",
    "```",
    r.output.replace(ANSI, "").trim().split("\n").slice(-SUMMARY_LINES).join("\n"),
    "```",
    "",
  ]),
].join("\n");
writeFileSync(join(root, "bench/RESULTS.md"), md);
console.log(
  `\nbench/RESULTS.md written. ${failures.length ? `Budgets failed: ${failures.join("; ")}` : "Every budget holds."}`,
);
process.exitCode = failures.length ? 1 : 0;
