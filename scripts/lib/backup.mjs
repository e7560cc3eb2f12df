// Backup and restore of the D1 database (npm run db:backup / db:restore, decision 017). `wrangler d1 export` refuses a
// database with virtual tables, and Helio has two FTS5 indexes, so the backup reads every real table itself — keyset
// pages in key order — into gzipped NDJSON; the restore rebuilds the schema from the migrations, inserts the rows with
// the triggers set aside (they would count and index every row a second time), rebuilds the FTS indexes and puts the
// triggers back.
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { createGunzip, createGzip } from "node:zlib";
import { q } from "./d1.mjs";

export const FORMAT = "helio-d1-backup";
export const VERSION = 1;
const migrationsDir = fileURLToPath(new URL("../../migrations", import.meta.url));

/** Rows per table per read (remotely, one `wrangler d1 execute` round trip reads a page of every table left). */
export const PAGE_ROWS = 1000;
/** D1 refuses SQL statements over 100 KB: INSERTs are cut below this, and longer values are appended in pieces. */
const MAX_STATEMENT = 90_000;
const VALUE_PIECE = 20_000; // characters: ≤ 80 KB of UTF-8 however wide the characters
/** Bytes of SQL per script the restore runs (one D1 transaction each). */
const SCRIPT_BYTES = 4_000_000;

const ident = (name) => `"${String(name).replaceAll('"', '""')}"`;

/** The tables a backup holds: real tables, not FTS5 virtual tables, their shadow tables or SQLite/D1/wrangler internals. */
export async function describeTables(d1) {
  const [objects, migrations, sequences] = await d1.batch([
    `SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name`,
    `SELECT name FROM d1_migrations ORDER BY id`,
    `SELECT name, seq FROM sqlite_sequence ORDER BY name`,
  ]);
  const virtual = objects.filter((o) => /^CREATE VIRTUAL TABLE/i.test(o.sql ?? "")).map((o) => o.name);
  const internal = (name) =>
    /^(sqlite_|_cf_|d1_)/.test(name) || virtual.some((v) => name.startsWith(`${v}_`)) || virtual.includes(name);
  const real = objects.filter((o) => !internal(o.name));
  const info = await d1.batch(
    real.flatMap((o) => [`PRAGMA table_info(${ident(o.name)})`, `PRAGMA foreign_key_list(${ident(o.name)})`]),
  );
  const tables = real.map((o, i) => {
    const columns = info[2 * i];
    const pk = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    const withoutRowid = /WITHOUT\s+ROWID\s*$/i.test(o.sql.trim());
    // The order rows are read and re-inserted in: the INTEGER PRIMARY KEY (the rowid itself), else the hidden rowid
    // (kept too, so the copy is exact), else — WITHOUT ROWID — the primary key.
    const key = withoutRowid
      ? pk.map((c) => c.name)
      : pk.length === 1 && pk[0].type.toUpperCase() === "INTEGER"
        ? [pk[0].name]
        : ["rowid"];
    return {
      name: o.name,
      columns: [...(key[0] === "rowid" ? ["rowid"] : []), ...columns.map((c) => c.name)],
      key,
      parents: info[2 * i + 1].map((r) => r.table),
    };
  });
  const fts = objects.filter((o) => virtual.includes(o.name) && /USING\s+fts5/i.test(o.sql)).map((o) => o.name);
  return {
    tables: parentsFirst(tables),
    fts,
    migrations: migrations.map((m) => m.name),
    sequences: Object.fromEntries(sequences.map((s) => [s.name, s.seq])),
  };
}

/** Tables ordered so that every table comes after the tables its foreign keys point to (cycles, if any, by name). */
function parentsFirst(tables) {
  const out = [];
  const placed = new Set();
  let rest = [...tables];
  while (rest.length) {
    const ready = rest.filter((t) =>
      t.parents.every((p) => p === t.name || placed.has(p) || !tables.some((x) => x.name === p)),
    );
    const next = ready.length ? ready : [rest[0]];
    for (const t of next) placed.add(t.name);
    out.push(...next);
    rest = rest.filter((t) => !placed.has(t.name));
  }
  return out.map(({ parents: _parents, ...t }) => t);
}

/** JSON cannot hold a BLOB: it travels as base64. */
function toJson(v) {
  if (v instanceof ArrayBuffer) return { $blob: Buffer.from(v).toString("base64") };
  if (ArrayBuffer.isView(v) || Array.isArray(v)) return { $blob: Buffer.from(Uint8Array.from(v)).toString("base64") };
  return v;
}

/**
 * Writes every row of every table to `file` (gzipped NDJSON): a header line (format, the migrations applied, the
 * tables with their columns in parent-first order, AUTOINCREMENT sequences), one `{"t": table, "v": [values]}` line per
 * row (pages of the tables interleaved, each table in key order), and a last line with the row count per table,
 * without which a restore refuses the file (a cut-off copy).
 * @returns {Promise<Record<string, number>>} rows per table
 */
export async function backupDatabase(d1, file, { pageRows = PAGE_ROWS, source = "local", log = () => {} } = {}) {
  const schema = await describeTables(d1);
  const header = { format: FORMAT, version: VERSION, createdAt: new Date().toISOString(), source, ...schema };
  const counts = Object.fromEntries(schema.tables.map((t) => [t.name, 0]));
  async function* lines() {
    yield JSON.stringify(header) + "\n";
    // Keyset paging: each table continues after the last key it returned; one read serves a page of every table left.
    const after = new Map(schema.tables.map((t) => [t.name, null]));
    while (after.size) {
      const open = schema.tables.filter((t) => after.has(t.name));
      const pages = await d1.batch(open.map((t) => pageSql(t, after.get(t.name), pageRows)));
      for (const [i, t] of open.entries()) {
        for (const row of pages[i]) {
          yield JSON.stringify({ t: t.name, v: t.columns.map((c) => toJson(row[c])) }) + "\n";
        }
        counts[t.name] += pages[i].length;
        if (pages[i].length < pageRows) after.delete(t.name);
        else
          after.set(
            t.name,
            t.key.map((k) => pages[i].at(-1)[k]),
          );
        if (pages[i].length && counts[t.name] % 100_000 < pages[i].length)
          log(`  ${t.name}: ${counts[t.name].toLocaleString("en-US")} rows`);
      }
    }
    yield JSON.stringify({ end: true, rows: counts }) + "\n";
  }
  await pipeline(Readable.from(lines()), createGzip(), createWriteStream(file));
  return counts;
}

function pageSql(table, after, limit) {
  const key = table.key.map(ident).join(", ");
  const where = after ? `WHERE (${key}) > (${after.map(literal).join(", ")})` : "";
  return `SELECT ${table.key[0] === "rowid" ? "rowid AS rowid, " : ""}* FROM ${ident(table.name)} ${where} ORDER BY ${key} LIMIT ${limit}`;
}

function literal(v) {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`cannot write ${v} as SQL`);
    return String(v);
  }
  if (typeof v === "object" && typeof v.$blob === "string")
    return `X'${Buffer.from(v.$blob, "base64").toString("hex")}'`;
  return q(v);
}

/** The lines of a backup file, header first; fails on another format or a file without its last line. */
export async function* readBackup(file) {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  let header = null;
  let end = null;
  const counts = {};
  for await (const line of lines) {
    if (!line) continue;
    const item = JSON.parse(line);
    if (!header) {
      if (item.format !== FORMAT || item.version !== VERSION)
        throw new Error(`${file} is not a Helio backup (format ${FORMAT}, version ${VERSION})`);
      header = item;
      yield { header };
    } else if (item.end) end = item;
    else {
      counts[item.t] = (counts[item.t] ?? 0) + 1;
      yield { table: item.t, values: item.v };
    }
  }
  if (!header) throw new Error(`${file} is empty`);
  if (!end) throw new Error(`${file} is incomplete: it stops before its last line (the backup did not finish)`);
  for (const t of header.tables) {
    if ((counts[t.name] ?? 0) !== end.rows[t.name])
      throw new Error(
        `${file} is damaged: ${t.name} has ${counts[t.name] ?? 0} rows, its last line says ${end.rows[t.name]}`,
      );
  }
  yield { end };
}

const bytes = (text) => Buffer.byteLength(text, "utf8");

/**
 * One row's VALUES tuple, kept below D1's statement size: the longest values go in empty and are appended piece by
 * piece (UPDATE … SET col = col || '…') until the tuple fits.
 */
function rowStatements(table, values) {
  const literals = values.map(literal);
  const sizes = literals.map(bytes);
  const long = new Set();
  let total = sizes.reduce((a, b) => a + b + 2, 2);
  while (total > MAX_STATEMENT / 2) {
    const i = sizes.reduce((best, size, j) => (!long.has(j) && size > (sizes[best] ?? -1) ? j : best), -1);
    long.add(i);
    total -= sizes[i] - 2;
  }
  const insert = `(${literals.map((l, i) => (long.has(i) ? "''" : l)).join(", ")})`;
  const where = table.key.map((k) => `${ident(k)} = ${literals[table.columns.indexOf(k)]}`).join(" AND ");
  const appends = [];
  for (const i of long) {
    const v = String(values[i]);
    for (let at = 0; at < v.length; ) {
      let end = Math.min(at + VALUE_PIECE, v.length);
      if (end < v.length && /[\uD800-\uDBFF]/.test(v[end - 1])) end--; // never split a surrogate pair
      appends.push(
        `UPDATE ${ident(table.name)} SET ${ident(table.columns[i])} = ${ident(table.columns[i])} || ${q(v.slice(at, end))} WHERE ${where}`,
      );
      at = end;
    }
  }
  return { insert, appends };
}

/**
 * One table's rows as SQL scripts of about SCRIPT_BYTES each (files of one JSON-encoded statement a line, so they
 * split without parsing SQL): multi-row INSERTs below D1's statement size, and the appends of any value too long for one.
 */
function scriptWriter(table, dir) {
  const scripts = [];
  let lines = [];
  let size = 0;
  let pending = null; // the multi-row INSERT being built: { sql, bytes }
  const add = (sql) => {
    lines.push(`${JSON.stringify(sql)}\n`);
    size += bytes(sql) + 2;
  };
  const flush = () => {
    if (pending) add(pending.sql);
    pending = null;
  };
  const cut = () => {
    flush();
    if (!lines.length) return;
    const path = join(dir, `${table.name}-${String(scripts.length).padStart(5, "0")}.ndjson`);
    writeFileSync(path, lines.join(""));
    scripts.push(path);
    lines = [];
    size = 0;
  };
  const head = `INSERT INTO ${ident(table.name)} (${table.columns.map(ident).join(", ")}) VALUES `;
  return {
    add(values) {
      const { insert, appends } = rowStatements(table, values);
      const n = bytes(insert) + 2;
      if (pending && pending.bytes + n > MAX_STATEMENT) flush();
      if (pending) {
        pending.sql += `, ${insert}`;
        pending.bytes += n;
      } else pending = { sql: head + insert, bytes: bytes(head) + n };
      if (appends.length) {
        flush();
        appends.forEach(add);
      }
      if (size + (pending?.bytes ?? 0) > SCRIPT_BYTES) cut();
    },
    finish() {
      cut();
      return scripts;
    },
  };
}

/**
 * Restores `file` into an empty database: the migrations the backup was taken at (in the order they were applied
 * there), then the rows with the triggers set aside, the FTS indexes rebuilt, the triggers and AUTOINCREMENT sequences
 * put back, and every table's row count checked against the file. The caller then applies this checkout's newer
 * migrations (`newerMigrations`), if any, with `wrangler d1 migrations apply`.
 * @returns {Promise<{ header: object, rows: Record<string, number>, newerMigrations: string[] }>}
 */
export async function restoreDatabase(d1, file, { log = () => {} } = {}) {
  // 1. Only into an empty database.
  const [existing] = await d1.batch([`SELECT name FROM sqlite_master WHERE type = 'table'`]);
  const used = existing.map((r) => r.name).filter((n) => !/^(sqlite_|_cf_)/.test(n));
  if (used.length) throw new Error(`${d1.where} is not empty (${used.length} tables): restore into an empty database.`);

  const work = mkdtempSync(join(tmpdir(), "helio-restore-"));
  try {
    // 2. Read and check the whole file first, writing each table's inserts as scripts of its own (the file
    //    interleaves tables; they are inserted parents first): nothing is written to the database if it is damaged.
    log(`Reading ${file}...`);
    let header = null;
    let end = null;
    const writers = new Map();
    for await (const item of readBackup(file)) {
      if (item.header) {
        header = item.header;
        for (const t of header.tables) writers.set(t.name, scriptWriter(t, work));
      } else if (item.end) end = item.end;
      else writers.get(item.table).add(item.values);
    }
    const scripts = header.tables.flatMap((t) => writers.get(t.name).finish());

    const available = readdirSync(migrationsDir).filter((f) => f.endsWith(".sql"));
    const unknown = header.migrations.filter((m) => !available.includes(m));
    if (unknown.length)
      throw new Error(
        `The backup was taken with migrations this checkout does not have: ${unknown.join(", ")}. Restore it from a checkout that has them.`,
      );

    // 3. The schema as it was: the backup's migrations in the order they were applied there, recorded the way
    //    `wrangler d1 migrations apply` records them (so it later applies only this checkout's newer ones).
    log(`Applying the backup's ${header.migrations.length} migrations...`);
    await d1.execute(
      [
        // wrangler's own statement, to the whitespace (sqlite_master keeps the text).
        `CREATE TABLE IF NOT EXISTS d1_migrations(\n\t\tid         INTEGER PRIMARY KEY AUTOINCREMENT,\n\t\tname       TEXT UNIQUE,\n\t\tapplied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL\n);`,
        ...header.migrations.map(
          (m) => `${readFileSync(join(migrationsDir, m), "utf8")}\nINSERT INTO d1_migrations (name) VALUES (${q(m)});`,
        ),
      ].join("\n"),
    );

    // 4. Triggers aside (they would count, index and log every row again); the rows the migrations seeded go.
    const [triggers] = await d1.batch([`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name`]);
    await d1.execute(
      [
        ...triggers.map((t) => `DROP TRIGGER ${ident(t.name)};`),
        ...[...header.tables].reverse().map((t) => `DELETE FROM ${ident(t.name)};`),
      ].join("\n"),
    );

    // 5. The rows, table by table, parents before children, in transactions of about SCRIPT_BYTES (small tables
    //    share one; foreign keys are checked at the end of each).
    let batch = [];
    let batchBytes = 0;
    let done = 0;
    const run = async () => {
      if (!batch.length) return;
      log(`Inserting rows: scripts ${done} of ${scripts.length}...`);
      await d1.execute(["PRAGMA defer_foreign_keys = on", ...batch]);
      batch = [];
      batchBytes = 0;
    };
    for (const path of scripts) {
      const text = readFileSync(path, "utf8");
      if (batchBytes + text.length > SCRIPT_BYTES) await run();
      batch.push(
        ...text
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line)),
      );
      batchBytes += text.length;
      done++;
    }
    await run();

    // 6. Search indexes from the restored rows and the triggers back; then the AUTOINCREMENT sequences as they were
    //    (the inserts already moved each to its table's highest id; this only matters where the newest rows had been
    //    deleted, so a refusal is a warning, not a failed restore).
    log("Rebuilding the search indexes and putting the triggers back...");
    await d1.execute([
      ...header.fts.map((f) => `INSERT INTO ${ident(f)}(${ident(f)}) VALUES ('rebuild')`),
      ...triggers.map((t) => t.sql),
    ]);
    await d1
      .execute(
        Object.entries(header.sequences).flatMap(([name, seq]) => [
          `UPDATE sqlite_sequence SET seq = ${Number(seq)} WHERE name = ${q(name)}`,
          `INSERT INTO sqlite_sequence (name, seq) SELECT ${q(name)}, ${Number(seq)} WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ${q(name)})`,
        ]),
      )
      .catch((err) =>
        log(
          `Warning: the AUTOINCREMENT sequences were not restored (${err.message}); new ids continue after the highest restored ones.`,
        ),
      );

    // 7. Every row is there.
    const counted = await d1.batch(header.tables.map((t) => `SELECT count(*) AS n FROM ${ident(t.name)}`));
    const rows = Object.fromEntries(header.tables.map((t, i) => [t.name, counted[i][0].n]));
    const missing = header.tables.filter((t) => rows[t.name] !== end.rows[t.name]);
    if (missing.length)
      throw new Error(
        `Restored row counts differ from the backup's: ${missing.map((t) => `${t.name} ${rows[t.name]} of ${end.rows[t.name]}`).join(", ")}`,
      );
    return { header, rows, newerMigrations: available.filter((m) => !header.migrations.includes(m)) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
