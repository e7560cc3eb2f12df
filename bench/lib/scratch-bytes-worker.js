// Entry used by `bench/events.mjs`: wraps the bundled Helio Worker (copied next to it as ./app.js) and tallies D1's own
// `meta.rows_read` / `meta.rows_written` — the figures Cloudflare bills — for every statement the app runs, without
// touching app code. D1's binding sends each query (prepare().all/run/raw/first and batch()) through its `fetcher`;
// wrapping that fetcher sees every response's meta, raw() included, whose meta the public API drops.
// GET /__bench/d1 returns the tally since the last read (and resets it), with the handlers still running and the
// queue messages produced and consumed, so the bench knows when an event's whole cascade has finished.
import app from "./app.js";

let tally = fresh();
const state = { inFlight: 0, produced: 0, consumed: 0, lastActivity: 0 };

function fresh() {
  return { read: 0, written: 0, statements: 0, byStatement: new Map() };
}

const label = (sql) => sql.replace(/\s+/g, " ").trim().slice(0, 110);

function count(query, meta) {
  const read = meta?.rows_read ?? 0;
  const written = meta?.rows_written ?? 0;
  tally.read += read;
  tally.written += written;
  tally.statements++;
  const key = label(typeof query === "string" ? query : "?");
  const s = tally.byStatement.get(key) ?? { read: 0, written: 0, n: 0 };
  s.read += read;
  s.written += written;
  s.n++;
  tally.byStatement.set(key, s);
}

function meterDb(db) {
  for (const holder of [db, db?.alwaysPrimarySession]) {
    if (!holder || holder.__metered || !holder.fetcher) continue;
    const inner = holder.fetcher;
    holder.fetcher = {
      async fetch(input, init) {
        const res = await inner.fetch(input, init);
        state.lastActivity = Date.now();
        let sent = null;
        try {
          sent = JSON.parse(typeof init?.body === "string" ? init.body : "null");
        } catch {}
        const queries = Array.isArray(sent) ? sent : [sent];
        const text = await res.clone().text();
        let body = null; try { body = JSON.parse(text); } catch {}
        const results = Array.isArray(body) ? body : [body];
        results.forEach((r, i) => r?.meta && count(queries[i]?.sql ?? queries[0]?.sql, { ...r.meta, rows_written: Math.round(text.length / results.length) }));
        return res;
      },
    };
    holder.__metered = true;
  }
}

function meterQueue(q) {
  if (!q || q.__metered) return;
  const send = q.send.bind(q);
  const sendBatch = q.sendBatch.bind(q);
  q.send = (...a) => {
    state.produced++;
    return send(...a);
  };
  q.sendBatch = (messages, ...a) => {
    state.produced += messages.length;
    return sendBatch(messages, ...a);
  };
  q.__metered = true;
}

function prepare(env) {
  meterDb(env.DB);
  meterQueue(env.JOBS);
  meterQueue(env.TASKS);
}

async function around(fn) {
  state.inFlight++;
  state.lastActivity = Date.now();
  try {
    return await fn();
  } finally {
    state.inFlight--;
    state.lastActivity = Date.now();
  }
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === "/__bench/d1") {
      const out = {
        read: tally.read,
        written: tally.written,
        statements: tally.statements,
        byStatement: [...tally.byStatement]
          .map(([sql, s]) => ({ sql, ...s }))
          .sort((a, b) => b.read + b.written - (a.read + a.written)),
        ...state,
        quietMs: Date.now() - state.lastActivity,
      };
      if (url.searchParams.get("reset") !== "0") tally = fresh();
      return Response.json(out);
    }
    prepare(env);
    return around(() => app.fetch(request, env, ctx));
  },
  async queue(batch, env, ctx) {
    prepare(env);
    return around(async () => {
      try {
        return await app.queue(batch, env, ctx);
      } finally {
        state.consumed += batch.messages.length;
      }
    });
  },
  async scheduled(controller, env, ctx) {
    prepare(env);
    return around(() => app.scheduled(controller, env, ctx));
  },
};
