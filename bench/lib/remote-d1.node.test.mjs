// `--d1-apart`'s binding (bench/lib/remote-d1.js, decision 085) answers as the real D1 binding does, for what the app
// asks of it: the same rows, counts and errors, a batch still one transaction. Both run against one local D1 in a
// workerd process of its own (startD1Host): the real binding through Miniflare, the remote one over HTTP.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startD1Host } from "./helio.mjs";
import { RemoteD1 } from "./remote-d1.js";

const persist = mkdtempSync(join(tmpdir(), "helio-remote-d1-test-"));
let host;
let real;
let remote;

beforeAll(async () => {
  const started = await startD1Host(persist);
  host = started.host;
  real = await host.getD1Database("DB");
  remote = new RemoteD1(started.url);
  for (const t of ["t_real", "t_remote"])
    await real.prepare(`CREATE TABLE ${t} (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, flag INTEGER)`).run();
}, 60_000);
afterAll(async () => {
  await host?.dispose();
  rmSync(persist, { recursive: true, force: true });
});

/** What the app reads of a result: rows, and the counts the events bench and the dispatcher add up. */
const seen = (r) => ({
  results: r.results,
  changes: r.meta.changes,
  last_row_id: r.meta.last_row_id,
  rows_read: r.meta.rows_read,
  rows_written: r.meta.rows_written,
});

/** The same steps on each binding, each on its own table; returns what each step answered (or threw). */
async function both(steps) {
  const out = {};
  for (const [side, db] of [
    ["real", real],
    ["remote", remote],
  ]) {
    const t = `t_${side}`;
    out[side] = [];
    for (const step of steps) {
      try {
        out[side].push(await step(db, t));
      } catch (e) {
        out[side].push({ threw: /UNIQUE constraint failed/.test(String(e.message)) ? "UNIQUE" : String(e.message) });
      }
    }
  }
  return out;
}

describe("RemoteD1, the --d1-apart binding", () => {
  it("answers run, all, first and raw as the binding does, booleans bound as 1/0", async () => {
    const { real: a, remote: b } = await both([
      async (db, t) => seen(await db.prepare(`INSERT INTO ${t} (name, flag) VALUES (?, ?)`).bind("ann", true).run()),
      async (db, t) => seen(await db.prepare(`INSERT INTO ${t} (name, flag) VALUES (?, ?)`).bind("bo", false).run()),
      async (db, t) => seen(await db.prepare(`SELECT id, name, flag FROM ${t} ORDER BY id`).all()),
      async (db, t) => db.prepare(`SELECT name, flag FROM ${t} WHERE id = ?`).bind(2).first(),
      async (db, t) => db.prepare(`SELECT name FROM ${t} WHERE id = ?`).bind(1).first("name"),
      async (db, t) => db.prepare(`SELECT name FROM ${t} WHERE id = ?`).bind(99).first(),
      async (db, t) => db.prepare(`SELECT id, name FROM ${t} ORDER BY id`).raw(),
      async (db, t) => db.prepare(`SELECT id, name FROM ${t} ORDER BY id`).raw({ columnNames: true }),
      async (db, t) => seen(await db.prepare(`UPDATE ${t} SET flag = flag + 1 RETURNING id`).all()),
    ]);
    expect(b).toEqual(a);
    expect(a[2].results).toEqual([
      { id: 1, name: "ann", flag: 1 },
      { id: 2, name: "bo", flag: 0 },
    ]);
    expect(a[7]).toEqual([
      ["id", "name"],
      [1, "ann"],
      [2, "bo"],
    ]);
  });

  it("runs a batch as one transaction, and a failing statement rolls the whole batch back", async () => {
    const { real: a, remote: b } = await both([
      async (db, t) =>
        (
          await db.batch([
            db.prepare(`INSERT INTO ${t} (name) VALUES (?)`).bind("cy"),
            db.prepare(`SELECT count(*) AS n FROM ${t}`),
          ])
        ).map(seen),
      async (db, t) =>
        db.batch([
          db.prepare(`INSERT INTO ${t} (name) VALUES (?)`).bind("di"),
          db.prepare(`INSERT INTO ${t} (name) VALUES (?)`).bind("ann"),
        ]),
      async (db, t) => db.prepare(`SELECT name FROM ${t} ORDER BY id`).raw(),
      async (db, t) => db.prepare(`INSERT INTO ${t} (name) VALUES (?)`).bind("bo").run(),
    ]);
    expect(b).toEqual(a);
    expect(a[0][1].results).toEqual([{ n: 3 }]);
    expect(a[1]).toEqual({ threw: "UNIQUE" });
    expect(a[2]).toEqual([["ann"], ["bo"], ["cy"]]);
    expect(a[3]).toEqual({ threw: "UNIQUE" });
  });
});
