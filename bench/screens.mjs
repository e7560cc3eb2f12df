// Screens and APIs at scale (issue 15; issue 11's 1,000,000-message figures): the real Worker in Miniflare over a
// D1 holding 100,000 contacts, 1,000,000 messages and 200 campaigns (bench/lib/scale-seed.mjs). Each route's
// latency (p50/p95/p99 over --requests requests, --concurrency in flight) sits beside two floors measured in the
// same run: a minimal Worker answering a body of the same size, and the bare SQL of the route's main query
// through the same D1 binding. The three are measured in turn, --repeats times, and each percentile is the median
// of its repetitions: a p95 of 60 requests is its 3 slowest, so a moment of other load on a shared machine would
// otherwise land on one of the three and not the others. Budgets: p95 ≤ 2 × (minimal Worker p95 + bare SQL p95);
// and at each later --scales (more history appended to the same database) p95 ≤ 1.2 × the route's p95 at the first
// (issue 22: 5M against 1M). No absolute millisecond budget: those do not travel between machines. Exit 1 when one fails.
// The inbox queue (issue 27, decision 046): Mine / Unassigned / All and Snoozed over the same conversations, a quarter of
// the contacts owned by the bench user and half by three other reps, a fifth of the conversations closed and one in
// fifty snoozed; every page also runs the sidebar's unread count. --only inbox measures just those rows.
//   node bench/screens.mjs [--requests 60] [--concurrency 4] [--repeats 3] [--contacts 100000] [--scales 1000000,5000000] [--only inbox] [--json out.json]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, loadavg, cpus } from "node:os";
import { join } from "node:path";
import { Miniflare } from "miniflare";
import { bundleWorker, createBenchUser, login, MF_BASE, migrate, startHelioWithoutProvider } from "./lib/helio.mjs";
import { seedAtScale } from "./lib/scale-seed.mjs";
import { parseFlags, runBench } from "./lib/util.mjs";

const flags = parseFlags(process.argv.slice(2));
const REQUESTS = Number(flags.requests ?? 60);
const CONCURRENCY = Number(flags.concurrency ?? 4);
const REPEATS = Number(flags.repeats ?? 3);
// Each scale appends messages to the same database; at every scale each route's p95 ≤ 2 × its floors, and at the
// later scales ≤ GROWTH_BUDGET × its p95 at the first (issue 22: 5M against 1M), each p95 taken in units of the
// minimal Worker's p95 measured in the same phase (the median over the phase's routes): the phases run minutes apart, and a shared machine's load moves every
// figure between them (in one run /api/contacts, whose table does not grow, came out 1.67× slower in raw ms while
// its minimal Worker was 1.7× slower too). The raw ratio is printed beside it.
const SCALES = String(flags.scales ?? flags.messages ?? "1000000,5000000")
  .split(",")
  .map(Number);
const CONTACTS = Number(flags.contacts ?? 100_000);
const GROWTH_BUDGET = 1.2;
const cleanups = [];

const INBOX = [
  ["mine", "open"],
  ["unassigned", "open"],
  ["all", "open"],
  ["mine", "closed"],
  ["mine", "snoozed"],
];
const OWNER_SQL = { mine: "owner_user_id = 1 AND ", unassigned: "owner_user_id IS NULL AND ", all: "" };

/**
 * Owners and queue states at scale: the contacts' owners through the app's own trigger (the conversations follow),
 * then a fifth of the conversations closed and one in fifty snoozed for a day.
 */
async function queueAtScale(db, userId) {
  const t = Date.now();
  const reps = [];
  for (const n of [1, 2, 3]) {
    await db
      .prepare(
        `INSERT INTO users (email, password_hash, first_name, last_name, role, is_active, login_count, created_at, updated_at)
         VALUES (?, 'x', 'Rep', ?, 'user', 1, 0, ?, ?)`,
      )
      .bind(`rep${n}@bench.test`, String(n), t, t)
      .run();
    reps.push(await db.prepare("SELECT id FROM users WHERE email = ?").bind(`rep${n}@bench.test`).first("id"));
  }
  await db
    .prepare(
      `UPDATE contacts SET owner_user_id = CASE id % 4 WHEN 0 THEN ?1 WHEN 1 THEN (CASE id % 3 WHEN 0 THEN ?2 WHEN 1 THEN ?3 ELSE ?4 END) WHEN 2 THEN ?2 ELSE NULL END`,
    )
    .bind(userId, ...reps)
    .run();
  await db.prepare("UPDATE conversations SET status = 'closed' WHERE id % 5 = 0").run();
  await db
    .prepare("UPDATE conversations SET snoozed_until = ? WHERE id % 50 = 1")
    .bind(t + 86_400_000)
    .run();
  OWNER_SQL.mine = `owner_user_id = ${userId} AND `;
  console.log(`inbox queue: owners and states set in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
async function measure(run) {
  await run(); // warm: first-hit compilation and page cache are not what a user waits for at steady state
  const times = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        next++;
        const t = performance.now();
        await run();
        times.push(performance.now() - t);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { p50: pct(times, 0.5), p95: pct(times, 0.95), p99: pct(times, 0.99) };
}

/** Each of `runs` measured in turn, REPEATS times; every percentile the median of its repetitions. */
async function measureInTurn(runs) {
  const reps = runs.map(() => []);
  for (let i = 0; i < REPEATS; i++) for (const [k, run] of runs.entries()) reps[k].push(await measure(run));
  return reps.map((r) => ({
    p50: median(r.map((x) => x.p50)),
    p95: median(r.map((x) => x.p95)),
    p99: median(r.map((x) => x.p99)),
  }));
}

async function main() {
  const out = mkdtempSync(join(tmpdir(), "helio-screens-"));
  cleanups.push(async () => rmSync(out, { recursive: true, force: true }));
  const scriptPath = bundleWorker(out);
  const { mf, db } = await startHelioWithoutProvider({
    scriptPath,
    cleanups,
  });
  await migrate(db);
  const user = { id: await createBenchUser(db) };
  const cookie = await login(mf);

  // A minimal Worker: answers any path with a body of ?bytes= bytes, so transport and response size match.
  const minimal = new Miniflare({
    ...MF_BASE,
    modules: true,
    script: `export default { fetch(req) { const n = Number(new URL(req.url).searchParams.get("bytes")) || 0; return new Response("x".repeat(n), { headers: { "Content-Type": "text/html" } }); } };`,
  });
  cleanups.push(() => minimal.dispose());

  const get = async (path) => {
    const res = await mf.dispatchFetch(`http://127.0.0.1${path}`, { headers: { Cookie: cookie, Accept: "text/html" } });
    const body = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path} → ${res.status}`);
    return body.byteLength;
  };
  // Prepared once: each property read on Miniflare's D1 proxy is a synchronous round trip to workerd, and one of those
  // failed an internal assertion mid-run under load (SynchronousFetcher, message id mismatch); the query itself is
  // what the floor measures.
  const sql = (text) => {
    const statement = db.prepare(text);
    return () => statement.all();
  };
  const term = "battery";
  const routesFor = (busy) => [
    { name: "Dashboard /", path: "/", sql: "SELECT * FROM campaigns ORDER BY id DESC LIMIT 5" },
    { name: "Contacts /contacts", path: "/contacts", sql: "SELECT * FROM contacts ORDER BY id DESC LIMIT 51" },
    {
      name: "Contacts search",
      path: "/contacts?q=Roof",
      sql: "SELECT c.* FROM contacts_fts f JOIN contacts c ON c.id = f.rowid WHERE contacts_fts MATCH '\"Roof\"' ORDER BY f.rowid DESC LIMIT 51",
    },
    {
      name: "Message Center /messages",
      path: "/messages",
      sql: "SELECT m.* FROM messages m ORDER BY m.id DESC LIMIT 51",
    },
    {
      name: "Message Center search",
      path: `/messages?q=${term}`,
      search: true,
      sql: `SELECT m.* FROM messages m JOIN messages_fts f ON f.rowid = m.id WHERE messages_fts MATCH '"${term}"' ORDER BY f.rowid DESC LIMIT 51`,
    },
    {
      name: "Conversations list",
      path: "/messages/conversations",
      search: true,
      // A superuser's default view: All, Open (decision 046).
      sql: "SELECT * FROM conversations WHERE status = 'open' ORDER BY last_message_at DESC, last_message_id DESC LIMIT 26",
    },
    ...INBOX.map(([view, state]) => ({
      name: `Inbox ${view} ${state}`,
      path: `/messages/conversations?view=${view}&state=${state}`,
      inbox: true,
      sql:
        state === "snoozed"
          ? `SELECT * FROM conversations WHERE ${OWNER_SQL[view]}snoozed_until > ${Date.now()} ORDER BY snoozed_until, id LIMIT 26`
          : `SELECT * FROM conversations WHERE ${OWNER_SQL[view]}status = '${state}' ORDER BY last_message_at DESC, last_message_id DESC LIMIT 26`,
    })),
    {
      name: "One conversation /contacts/:id",
      path: `/contacts/${busy.id}`,
      search: true,
      sql: `SELECT * FROM messages WHERE contact_id = ${busy.id} ORDER BY id DESC LIMIT 31`,
    },
    { name: "Campaigns /campaigns", path: "/campaigns", sql: "SELECT * FROM campaigns ORDER BY id DESC LIMIT 51" },
    {
      name: "Analytics /analytics",
      path: "/analytics",
      sql: "SELECT * FROM message_daily_counts ORDER BY day DESC LIMIT 300",
    },
    {
      name: "API /api/messages",
      path: "/api/messages?limit=50",
      sql: "SELECT m.* FROM messages m ORDER BY m.id DESC LIMIT 51",
    },
    {
      name: "API /api/contacts",
      path: "/api/contacts?limit=50",
      sql: "SELECT * FROM contacts ORDER BY id DESC LIMIT 51",
    },
  ];
  const scales = [];
  const only = flags.only === "inbox" ? (r) => r.inbox || r.name === "Conversations list" : () => true;
  let failed = 0;
  let seededSoFar = 0;
  for (const [k, target] of SCALES.entries()) {
    // More history on the same database: the next scale appends messages (another seed) to the same contacts.
    const seeded = await seedAtScale(db, {
      contacts: CONTACTS,
      messages: target - seededSoFar,
      seed: k + 1,
      append: k > 0,
      userId: user.id,
    });
    seededSoFar = target;
    console.log(
      `seeded ${seeded.contacts.toLocaleString("en-US")} contacts, ${seeded.messages.toLocaleString("en-US")} messages, ${seeded.campaigns} campaigns, ${seeded.conversations.toLocaleString("en-US")} conversations in ${seeded.seconds.toFixed(1)} s`,
    );
    await db.exec("PRAGMA optimize");
    const busy = await db
      .prepare(
        "SELECT contact_id AS id, count(*) AS n FROM messages WHERE contact_id = (SELECT contact_id FROM messages ORDER BY id DESC LIMIT 1)",
      )
      .first();
    if (k === 0) await queueAtScale(db, user.id);
    const routes = routesFor(busy).filter(only);
    const rows = [];
    for (const r of routes) {
      const bytes = await get(r.path);
      const [route, floorWorker, floorSql] = await measureInTurn([
        () => get(r.path),
        async () => (await minimal.dispatchFetch(`http://127.0.0.1/?bytes=${bytes}`)).arrayBuffer(),
        sql(r.sql),
      ]);
      const budget = 2 * (floorWorker.p95 + floorSql.p95);
      // Ratios to floors measured in the same run only: an absolute millisecond budget does not travel between machines.
      const ok = route.p95 <= budget;
      if (!ok) failed++;
      rows.push({ ...r, bytes, route, floorWorker, floorSql, budget, ok, grew: null, rawGrowth: null });
      console.log(
        `${r.name.padEnd(32)} p50 ${route.p50.toFixed(1)} p95 ${route.p95.toFixed(1)} p99 ${route.p99.toFixed(1)} ms | minimal Worker p95 ${floorWorker.p95.toFixed(1)} | bare SQL p95 ${floorSql.p95.toFixed(1)} | budget ${budget.toFixed(1)} ms ${ok ? "OK" : "FAIL"}`,
      );
    }
    // Growth against the first scale, each p95 in units of the phase's minimal Worker: the median of its p95s over
    // every route of the phase. One route's own minimal-Worker p95 (its 3rd slowest of 60) swings with a moment of
    // other load — in one run /api/contacts' came out 11.8 ms among 30–50 ms neighbours, a "4.66×" growth of a table
    // that does not grow.
    const unit = median(rows.map((x) => x.floorWorker.p95));
    if (scales.length) {
      const unit0 = scales[0].unit;
      console.log(
        `growth against ${SCALES[0].toLocaleString("en-US")} (minimal Worker p95, median of the phase: ${unit0.toFixed(1)} → ${unit.toFixed(1)} ms)`,
      );
      for (const row of rows) {
        const atFirst = scales[0].rows.find((x) => x.name === row.name);
        if (!atFirst) continue;
        row.rawGrowth = row.route.p95 / atFirst.route.p95;
        row.grew = row.route.p95 / unit / (atFirst.route.p95 / unit0);
        const grewOk = row.grew <= GROWTH_BUDGET;
        if (!grewOk) failed++;
        row.ok = row.ok && grewOk;
        console.log(
          `${row.name.padEnd(32)} p95 ${row.grew.toFixed(2)}× its p95 at ${SCALES[0].toLocaleString("en-US")} in minimal-Worker units (raw ${row.rawGrowth.toFixed(2)}×; budget ≤ ${GROWTH_BUDGET}×) ${grewOk ? "OK" : "FAIL"}`,
        );
      }
    }
    scales.push({ messages: target, seeded, rows, unit });
  }
  const report = {
    when: new Date().toISOString(),
    machine: `${cpus().length} cores`,
    load: loadavg()
      .map((x) => x.toFixed(2))
      .join(" "),
    scales: scales.map((x) => ({
      messages: x.messages,
      seeded: x.seeded,
      rows: x.rows.map(({ name, path, bytes, route, floorWorker, floorSql, budget, ok, grew, rawGrowth }) => ({
        name,
        path,
        bytes,
        route,
        floorWorker,
        floorSql,
        budget,
        ok,
        grew,
        rawGrowth,
      })),
    })),
    requests: REQUESTS,
    concurrency: CONCURRENCY,
    repeats: REPEATS,
  };
  if (flags.json) writeFileSync(flags.json, JSON.stringify(report, null, 2));
  console.log(
    `${failed ? `${failed} budget(s) failed` : "every budget holds"} (load ${report.load}; each figure the median of ${REPEATS} repetitions of ${REQUESTS} requests, ${CONCURRENCY} in flight)`,
  );
  return failed ? 1 : 0;
}

runBench(main, async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});
