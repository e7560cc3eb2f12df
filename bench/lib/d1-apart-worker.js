// Entry used by `--d1-apart` (bench/lib/helio.mjs): wraps the bundled Helio Worker (copied next to it as ./app.js)
// and gives it a D1 binding whose statements run in another workerd process (bench/lib/d1-host-worker.js), as
// production's D1 runs on other machines. Helio's thread still pays what production's binding does per round trip —
// the statements serialised as JSON, a subrequest, the answer parsed and rows made objects — but not SQLite or
// Miniflare's D1 request handling. The API is the part of D1Database the app uses: prepare/bind/all/run/first/raw and
// batch, with the binding's value conversions (booleans as 1/0, bytes as arrays).
import app from "./app.js";

const value = (v) => {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof ArrayBuffer) return Array.from(new Uint8Array(v));
  if (ArrayBuffer.isView(v)) return Array.from(v);
  return v;
};

class RemoteD1 {
  constructor(url) {
    this.url = url;
  }
  async send(statements, raw = false) {
    const res = await fetch(this.url, { method: "POST", body: JSON.stringify({ statements, raw }) });
    const body = await res.json();
    if (body.error) throw new Error(body.error);
    return body;
  }
  prepare(sql) {
    return new Statement(this, sql, []);
  }
  async batch(statements) {
    const { results } = await this.send(statements.map((s) => ({ sql: s.sql, params: s.params })));
    return results;
  }
  exec() {
    throw new Error("exec is not forwarded (the bench migrates the host's database directly)");
  }
}

class Statement {
  constructor(db, sql, params) {
    this.db = db;
    this.sql = sql;
    this.params = params;
  }
  bind(...values) {
    return new Statement(this.db, this.sql, values.map(value));
  }
  async all() {
    return (await this.db.send([{ sql: this.sql, params: this.params }])).results[0];
  }
  run() {
    return this.all();
  }
  async first(column) {
    const row = (await this.all()).results?.[0];
    if (!row) return null;
    return column === undefined ? row : row[column];
  }
  async raw(options) {
    const { rows } = await this.db.send([{ sql: this.sql, params: this.params }], true);
    return options?.columnNames ? rows : rows.slice(1);
  }
}

// One binding and one env per env object, so the app's per-binding caches (the drizzle client) see the same objects.
const envs = new WeakMap();
function withRemoteD1(env) {
  let e = envs.get(env);
  if (!e) envs.set(env, (e = { ...env, DB: new RemoteD1(env.BENCH_D1_URL) }));
  return e;
}

export default {
  fetch: (request, env, ctx) => app.fetch(request, withRemoteD1(env), ctx),
  scheduled: (controller, env, ctx) => app.scheduled(controller, withRemoteD1(env), ctx),
  queue: (batch, env, ctx) => app.queue(batch, withRemoteD1(env), ctx),
};
