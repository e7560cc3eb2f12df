// Issue 15's import budget: the real upload → stage → confirm → queue import of a CSV, beside a bare batched insert
// of the same rows into the same D1 in the same run, and the peak memory of the workerd process doing it. Runs the
// deployable bundle in Miniflare (bench/lib/helio.mjs) so the bench can reach the Worker's own D1 for the ceiling.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleWorker, login, migrate, seed, startHelioWithoutProvider } from "./helio.mjs";
import { matchColumnsAsGuessed } from "./import-steps.mjs";

/** Every process below `pid` (children, grandchildren…), from /proc. */
function descendants(pid) {
  const parentOf = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may hold spaces: the fields after it start after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // the process ended meanwhile
    }
  }
  const out = [];
  const walk = (p) => {
    for (const [child, parent] of parentOf) {
      if (parent !== p) continue;
      out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}

/** kB of resident memory (VmRSS) and its high-water mark (VmHWM) of the workerd processes Miniflare started. */
function workerdMemory() {
  let rss = 0;
  let hwm = 0;
  for (const pid of descendants(process.pid)) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      if (!/^Name:\s*workerd/m.test(status)) continue;
      rss += Number(/^VmRSS:\s*(\d+)/m.exec(status)?.[1] ?? 0);
      hwm += Number(/^VmHWM:\s*(\d+)/m.exec(status)?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return { rss, hwm };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Imports `csvText` through the app, then inserts the rows it stored into a copy of `contacts` (same columns and
 * indexes, no triggers) in batches of 1,000-row JSON statements — what a bare import would do.
 * @returns {Promise<{ importSeconds: number, stageSeconds: number, created: number, bareSeconds: number, bareRows: number,
 *   rssBeforeMb: number, rssStagePeakMb: number, rssPeakMb: number, hwmMb: number }>}
 */
export async function importAgainstCeiling(csvText, { timeoutMs = 15 * 60_000 } = {}) {
  const cleanups = [];
  const out = mkdtempSync(join(tmpdir(), "helio-import-bench-"));
  cleanups.push(async () => rmSync(out, { recursive: true, force: true }));
  try {
    const scriptPath = bundleWorker(out);
    // No provider is called: the Twilio settings only have to be present.
    const h = await startHelioWithoutProvider({
      scriptPath,
      cleanups,
    });
    await migrate(h.db);
    await seed(h.db, 0, "America/Denver");
    const cookie = await login(h.mf);
    const base = "http://127.0.0.1";
    // Serialised here: Miniflare's dispatchFetch does not write a FormData body's multipart Content-Type itself.
    const post = async (path, body) => {
      const req = new Request(base + path, { method: "POST", body });
      const headers = { Cookie: cookie, "Content-Type": req.headers.get("Content-Type") };
      return h.mf.dispatchFetch(base + path, {
        method: "POST",
        headers,
        body: await req.arrayBuffer(),
        redirect: "manual",
      });
    };

    const before = workerdMemory();
    let peak = before.rss;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, workerdMemory().rss);
        await sleep(100);
      }
    })();

    const form = new FormData();
    form.set("file", new File([csvText], "bench.csv", { type: "text/csv" }));
    const t0 = performance.now();
    const staged = await post("/contacts/upload", form);
    const location = staged.headers.get("Location");
    await staged.arrayBuffer();
    if (staged.status !== 302 || !location?.startsWith("/contacts/imports/"))
      throw new Error(`upload failed: ${staged.status}`);
    const get = (path) => h.mf.dispatchFetch(base + path, { headers: { Cookie: cookie }, redirect: "manual" });
    await matchColumnsAsGuessed(get, post, location);
    const stageSeconds = (performance.now() - t0) / 1000;
    const stagedPeak = Math.max(peak, workerdMemory().rss);
    const importId = Number(/\/contacts\/imports\/(\d+)/.exec(location)[1]);
    const t1 = performance.now();
    const confirm = await post(location, new URLSearchParams({ intent: "confirm", duplicateMode: "skip" }));
    await confirm.arrayBuffer();
    if (confirm.status !== 302) throw new Error(`confirm failed: ${confirm.status}`);
    for (;;) {
      const row = await h.db
        .prepare("SELECT status, created_count FROM contact_imports WHERE id = ?")
        .bind(importId)
        .first();
      if (row.status === "completed") break;
      if (row.status === "failed" || row.status === "cancelled") throw new Error(`import ${row.status}`);
      if (performance.now() - t1 > timeoutMs) throw new Error("import did not finish in time");
      await sleep(20);
    }
    const importSeconds = (performance.now() - t1) / 1000;
    sampling = false;
    await sampler;
    const after = workerdMemory();
    const created = await h.db.prepare("SELECT count(*) AS n FROM contacts").first("n");

    // The ceiling: the same stored rows, inserted bare into a copy of the table with the same indexes.
    const { sql: createSql } = await h.db
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'contacts'")
      .first();
    const indexes = (
      await h.db
        .prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'contacts' AND sql IS NOT NULL")
        .all()
    ).results;
    await h.db.batch([
      h.db.prepare(createSql.replace(/CREATE TABLE [`"]?contacts[`"]?/, "CREATE TABLE bare_contacts")),
      ...indexes.map((i) =>
        h.db.prepare(
          i.sql.replace(/INDEX [`"]?(\w+)[`"]?/, "INDEX bare_$1").replace(/ON [`"]?contacts[`"]?/, "ON bare_contacts"),
        ),
      ),
    ]);
    const columns = (
      await h.db.prepare("SELECT name FROM pragma_table_info('contacts') WHERE name <> 'id'").all()
    ).results.map((c) => c.name);
    const rows = (await h.db.prepare(`SELECT ${columns.join(", ")} FROM contacts`).all()).results;
    const insert = `INSERT INTO bare_contacts (${columns.join(", ")}) SELECT ${columns.map((c) => `json_extract(value, '$.${c}')`).join(", ")} FROM json_each(?)`;
    const t2 = performance.now();
    for (let i = 0; i < rows.length; i += 10_000) {
      const statements = [];
      for (let j = i; j < Math.min(i + 10_000, rows.length); j += 1000)
        statements.push(h.db.prepare(insert).bind(JSON.stringify(rows.slice(j, j + 1000))));
      await h.db.batch(statements);
    }
    const bareSeconds = (performance.now() - t2) / 1000;
    const bareRows = await h.db.prepare("SELECT count(*) AS n FROM bare_contacts").first("n");
    return {
      stageSeconds,
      importSeconds,
      created,
      bareSeconds,
      bareRows,
      rssBeforeMb: before.rss / 1024,
      rssPeakMb: Math.max(peak, after.rss) / 1024,
      rssStagePeakMb: stagedPeak / 1024,
      hwmMb: after.hwm / 1024,
    };
  } finally {
    while (cleanups.length)
      await cleanups
        .pop()()
        .catch((e) => console.error("cleanup:", e?.message ?? e));
  }
}
