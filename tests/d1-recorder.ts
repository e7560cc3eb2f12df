/** One statement the app sent to D1, with what D1 said it cost (`meta.rows_read` / `meta.rows_written`). */
export type Recorded = { sql: string; params: unknown[]; read: number; written: number; trip: number };

let recorded: Recorded[] = [];
let recording = false;
/** Requests to D1 while recording: one per prepare().run/all/first and one per batch() — the round trips. */
let trips = 0;

/**
 * Wraps the D1 binding's fetcher (every prepare/batch goes through it) to keep each statement and its meta while
 * `measureD1` runs. Returns the function that unwraps it.
 */
export function recordD1(d1: D1Database): () => void {
  const holders = [d1, (d1 as any).alwaysPrimarySession].filter((h) => h?.fetcher);
  const originals = holders.map((h) => h.fetcher);
  holders.forEach((h, i) => {
    const inner = originals[i];
    h.fetcher = {
      async fetch(input: RequestInfo, init?: RequestInit) {
        const res: Response = await inner.fetch(input, init);
        if (!recording) return res;
        const trip = ++trips;
        const sent = JSON.parse(typeof init?.body === "string" ? init.body : "null");
        const queries: { sql: string; params?: unknown[] }[] = Array.isArray(sent) ? sent : [sent];
        const body = await res
          .clone()
          .json()
          .catch(() => null);
        const results: any[] = Array.isArray(body) ? body : [body];
        results.forEach((r, k) => {
          const q = queries[k] ?? queries[0];
          if (q?.sql)
            recorded.push({
              sql: q.sql,
              params: q.params ?? [],
              read: r?.meta?.rows_read ?? 0,
              written: r?.meta?.rows_written ?? 0,
              trip,
            });
        });
        return res;
      },
    };
  });
  return () => holders.forEach((h, i) => (h.fetcher = originals[i]));
}

/** Runs `work` with recording on (after `recordD1`): its statements, its round trips, their rows read and written. */
export async function measureD1(work: () => Promise<unknown>) {
  recorded = [];
  trips = 0;
  recording = true;
  try {
    await work();
  } finally {
    recording = false;
  }
  const statements = recorded;
  return {
    statements,
    trips,
    read: statements.reduce((a, s) => a + s.read, 0),
    written: statements.reduce((a, s) => a + s.written, 0),
  };
}
