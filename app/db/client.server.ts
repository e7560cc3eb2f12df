import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";

export type Db = DrizzleD1Database & { $client: D1Database };

/**
 * No schema is passed: queries use the query builder and sql``, never the relational `db.query` API, and given a
 * schema drizzle walks every table of it on each call — ~1.5 ms of CPU per request, queue batch and cron tick
 * (a tenth of the send consumer's own CPU, bench/broadcast.mjs).
 */
export function createDb(d1: D1Database): Db {
  let db = dbs.get(d1);
  if (!db) {
    db = drizzle(d1);
    dbs.set(d1, db);
  }
  return db;
}
// One drizzle instance per binding: it holds no per-request state, and building one (dialect, session, logger) was
// ~0.4 ms of every request's CPU in a profile of a page (bench/README).
const dbs = new WeakMap<D1Database, Db>();

/** D1 allows 100 bound parameters per statement: rows per multi-row INSERT for a given column count. */
export function rowsPerInsert(columnCount: number, maxParams = 100): number {
  return Math.max(1, Math.floor(maxParams / columnCount));
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

type Batchable = {
  _prepare(): {
    getQuery(): { sql: string; params: unknown[] };
    mapResult(result: unknown, isFromBatch?: boolean): unknown;
  };
};

/**
 * One D1 transaction over query builders and raw `db.run(sql…)` statements alike. drizzle's own
 * `db.batch` cannot bind parameters of raw SQL statements (it expects a prepared `stmt` they lack), so
 * every item is prepared from its SQL text here; results are mapped exactly as drizzle's batch does.
 */
export async function runBatch<T extends readonly unknown[]>(db: Db, items: T): Promise<unknown[]> {
  if (items.length === 0) return [];
  const prepared = (items as unknown as Batchable[]).map((q) => q._prepare());
  const statements = prepared.map((p) => {
    const { sql, params } = p.getQuery();
    // raw-sql: run-batch
    return db.$client.prepare(sql).bind(...params);
  });
  const results = await db.$client.batch(statements);
  return results.map((r, i) => prepared[i].mapResult(r, true));
}
