/**
 * Puts the test storage back to what the migrations left (decision 051). The unit suite runs its files in one workerd
 * runtime per vitest worker instead of starting one per file (a runtime costs ~5 s; the suite has 120 files), so what
 * one file writes would otherwise meet the next file.
 *
 * The first call copies every table the migrations seeded (singleton counters, settings) into a `_test_seed_*` twin;
 * every later call empties all tables and copies the seeds back, in one batch (one transaction) with foreign keys
 * deferred to its commit. FTS5 tables follow the delete triggers of the tables they index. AUTOINCREMENT counters
 * (`sqlite_sequence`) go back to the migrations' values too: tests that read rows by id ranges (event-paths) count
 * differently when ids start elsewhere. Queue jobs a file leaves in flight are waited for (`settleQueues`) before
 * the next file resets, and one that comes back later (a retry) is acked unrun (`startTestFile`), so none of them
 * meets the next file's rows under a reused id.
 */
const SEED_PREFIX = "_test_seed_";
const DONE = `${SEED_PREFIX}_done`;

type TableRow = { name: string; sql: string };

export async function resetTestStorage(env: { DB: D1Database; ARCHIVE: R2Bucket; MEDIA: R2Bucket }): Promise<void> {
  await resetDatabase(env.DB);
  await emptyBucket(env.ARCHIVE);
  await emptyBucket(env.MEDIA);
}

async function resetDatabase(db: D1Database): Promise<void> {
  const { results } = await db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all<TableRow>();
  const names = results.map((t) => t.name);
  const virtual = results.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
  const tables = names.filter(
    (name) =>
      !name.startsWith("sqlite_") &&
      !name.startsWith("_cf_") &&
      name !== "d1_migrations" &&
      !name.startsWith(SEED_PREFIX) &&
      !virtual.some((v) => name === v || name.startsWith(`${v}_`)),
  );

  if (!names.includes(DONE)) {
    // The first file in this runtime: the database is exactly what the migrations made. Remember its rows.
    const counts = await db.batch<{ n: number }>(tables.map((t) => db.prepare(`SELECT count(*) AS n FROM "${t}"`)));
    const withRows = tables.filter((_, i) => (counts[i]!.results[0]?.n ?? 0) > 0);
    await db.batch([
      ...withRows.map((t) => db.prepare(`CREATE TABLE "${SEED_PREFIX}${t}" AS SELECT * FROM "${t}"`)),
      db.prepare(`CREATE TABLE "${SEED_PREFIX}_sequence" AS SELECT * FROM sqlite_sequence`),
      db.prepare(`CREATE TABLE "${DONE}" (x)`),
    ]);
    return;
  }

  // A file that ran ANALYZE left statistics of its own rows, and plans (which tests assert) change with them.
  const stats = names.filter((n) => /^sqlite_stat\d$/.test(n));
  await db.batch([
    ...stats.map((t) => db.prepare(`DELETE FROM "${t}"`)),
    db.prepare("PRAGMA defer_foreign_keys = on"),
    // Twice: deleting rows fires triggers that write counter rows into tables the first pass already emptied.
    ...[...tables, ...tables].map((t) => db.prepare(`DELETE FROM "${t}"`)),
    db.prepare("DELETE FROM sqlite_sequence"),
    db.prepare(`INSERT INTO sqlite_sequence SELECT * FROM "${SEED_PREFIX}_sequence"`),
    ...tables
      .filter((t) => names.includes(`${SEED_PREFIX}${t}`))
      .map((t) => db.prepare(`INSERT INTO "${t}" SELECT * FROM "${SEED_PREFIX}${t}"`)),
  ]);
  // The planner keeps the statistics it loaded until told to reload them (from the now empty tables).
  if (stats.length > 0) await db.exec("ANALYZE sqlite_schema");
}

async function emptyBucket(bucket: R2Bucket): Promise<void> {
  for (;;) {
    const page = await bucket.list({ limit: 1000 });
    if (page.objects.length === 0) return;
    await bucket.delete(page.objects.map((o) => o.key));
  }
}

const SENT = Symbol.for("helio.tests.queueSent");
type Flag = { [SENT]?: boolean };

/**
 * Notes when any queue binding sends (the test, or the Worker under test: one isolate, one Queue prototype), so a
 * file that queued nothing ends at once.
 */
export function noteQueueSends(queue: Queue): void {
  const proto = Object.getPrototypeOf(queue) as Queue & { [SENT]?: true };
  if (proto[SENT]) return;
  proto[SENT] = true;
  for (const method of ["send", "sendBatch"] as const) {
    const original = proto[method] as (...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(proto, method, {
      configurable: true,
      value(this: Queue, ...args: unknown[]) {
        (globalThis as Flag)[SENT] = true;
        return original.apply(this, args);
      },
    });
  }
}

/** Waits while queue batches are still due (a batch waits up to max_batch_timeout = 1 s, and a job may queue more). */
export async function settleQueues(): Promise<void> {
  for (let round = 0; round < 4 && (globalThis as Flag)[SENT]; round++) {
    (globalThis as Flag)[SENT] = false;
    await new Promise((r) => setTimeout(r, 1_500));
  }
  (globalThis as Flag)[SENT] = false;
}

const FILE_START = Symbol.for("helio.tests.fileStartedAt");
const WRAPPED = Symbol.for("helio.tests.queueWrapped");
type Handlers = { queue?: (batch: MessageBatch, env: never, ctx?: ExecutionContext) => Promise<void> } & {
  [WRAPPED]?: true;
};

/**
 * From here on, queue messages sent before now belong to an earlier test file: the Worker's queue handler acks them
 * without running them. A retried job (a provider error, a lease) can come back after its file ended; run then, it
 * would act on this file's rows under ids the reset made again. Called once per file, before the reset.
 */
export function startTestFile(worker: Handlers): void {
  (globalThis as { [FILE_START]?: number })[FILE_START] = Date.now();
  if (worker[WRAPPED] || !worker.queue) return;
  worker[WRAPPED] = true;
  const original = worker.queue.bind(worker);
  worker.queue = async (batch, env, ctx) => {
    const since = (globalThis as { [FILE_START]?: number })[FILE_START] ?? 0;
    const fresh = batch.messages.filter((m) => m.timestamp.getTime() >= since);
    if (fresh.length === batch.messages.length) return original(batch, env, ctx);
    for (const m of batch.messages) if (m.timestamp.getTime() < since) m.ack();
    if (!fresh.length) return;
    const rest: MessageBatch = {
      queue: batch.queue,
      metadata: batch.metadata,
      messages: fresh,
      ackAll: () => fresh.forEach((m) => m.ack()),
      retryAll: (o) => fresh.forEach((m) => m.retry(o)),
    };
    return original(rest, env, ctx);
  };
}
