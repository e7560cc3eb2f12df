// Entry used by `bench/broadcast.mjs --profile`: wraps the bundled Helio Worker (copied next to it as ./app.js) and
// times, per queue batch, every D1 call and every outbound fetch, without touching app code. The totals are read
// back from GET /__bench/profile. Locally batches arrive one at a time, so one "current batch" record suffices.
import app from "./app.js";

const batches = [];
let current = null;
const now = () => performance.now(); // advances on I/O completion in workerd, which is what we time

const label = (sql) => sql.replace(/\s+/g, " ").trim().slice(0, 60);
async function timed(kind, what, promise) {
  const rec = current;
  const start = now();
  try {
    return await promise;
  } finally {
    rec?.[kind].push({ what, start, end: now() });
  }
}

// Statements must reach the real D1 batch() unwrapped.
const realStmt = new WeakMap();
function wrapStmt(stmt, sql) {
  const w = {
    bind: (...args) => wrapStmt(stmt.bind(...args), sql),
    all: () => timed("d1", label(sql), stmt.all()),
    run: () => timed("d1", label(sql), stmt.run()),
    raw: (o) => timed("d1", label(sql), stmt.raw(o)),
    first: (c) => timed("d1", label(sql), stmt.first(c)),
  };
  realStmt.set(w, { stmt, sql });
  return w;
}
function wrapDb(db) {
  return {
    prepare: (sql) => wrapStmt(db.prepare(sql), sql),
    batch: (stmts) => {
      const real = stmts.map((s) => realStmt.get(s) ?? { stmt: s, sql: "?" });
      return timed("d1", `batch(${real.length}): ${label(real[0].sql)}`, db.batch(real.map((r) => r.stmt)));
    },
    exec: (sql) => timed("d1", label(sql), db.exec(sql)),
    dump: () => db.dump(),
  };
}

const realFetch = globalThis.fetch;
// BENCH_IN_PROCESS_TWILIO=1: Twilio's create call is answered here, without the network, so the run shows what the
// consumer costs besides its POSTs (the diagnosis in docs/decisions/015).
let sidCounter = 0;
const inProcess = () => {
  const sid = "SM" + (++sidCounter).toString(16).padStart(32, "0");
  return new Response(JSON.stringify({ sid, status: "queued" }), {
    status: 201,
    headers: { "Content-Type": "application/json" },
  });
};
let stubTwilio = false;
globalThis.fetch = (input, init) =>
  timed(
    "fetch",
    "fetch",
    stubTwilio && String(input.url ?? input).endsWith("/Messages.json")
      ? Promise.resolve(inProcess())
      : realFetch(input, init),
  );

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === "/__bench/profile") return Response.json(batches);
    return app.fetch(request, env, ctx);
  },
  scheduled(controller, env, ctx) {
    return app.scheduled(controller, env, ctx);
  },
  async queue(batch, env, ctx) {
    stubTwilio = env.BENCH_IN_PROCESS_TWILIO === "1";
    const rec = { size: batch.messages.length, start: now(), end: 0, d1: [], fetch: [] };
    current = rec;
    try {
      await app.queue(batch, { ...env, DB: wrapDb(env.DB) }, ctx);
    } finally {
      rec.end = now();
      current = null;
      // Relative times keep the payload small.
      for (const k of ["d1", "fetch"])
        for (const e of rec[k]) {
          e.start -= rec.start;
          e.end -= rec.start;
        }
      rec.end -= rec.start;
      rec.start = Date.now();
      batches.push(rec);
    }
  },
};
