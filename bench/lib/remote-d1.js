// The D1 binding of `--d1-apart` (bench/lib/d1-apart-worker.js): the part of D1Database the app uses —
// prepare/bind/all/run/first/raw and batch, with the binding's value conversions (booleans as 1/0, bytes as arrays) —
// over HTTP to a D1 in another workerd process (bench/lib/d1-host-worker.js). Tested against the real binding in
// remote-d1.node.test.mjs.

const value = (v) => {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof ArrayBuffer) return Array.from(new Uint8Array(v));
  if (ArrayBuffer.isView(v)) return Array.from(v);
  return v;
};

export class RemoteD1 {
  constructor(url, fetchImpl = (input, init) => fetch(input, init)) {
    this.url = url;
    this.fetch = fetchImpl;
  }
  async send(statements, raw = false) {
    const res = await this.fetch(this.url, { method: "POST", body: JSON.stringify({ statements, raw }) });
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
