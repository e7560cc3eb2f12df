import { keepConsentEvidence } from "./keep-consent-evidence.server";
import type { Db } from "~/db/client.server";
import { RETENTION_KEY, retentionMonthsFrom, type OrgSettingRow } from "./org-settings.server";

/**
 * Messages read per tick at most: one R2 put per month touched (a chunk rarely spans two) and three D1 round trips.
 * At 2,000 a tick compresses ~1–2 MB of NDJSON and deletes 2,000 rows in one transaction; at one tick a minute the
 * task archives ~2.9M messages a day, so a backlog of 10 GB clears in days and a month of 1M SMS in ~9 hours.
 */
export const ARCHIVE_CHUNK = 2_000;
/** A tick that is writing holds the task this long (a Cron Trigger runs 15 minutes at most). */
export const ARCHIVE_LEASE_MS = 15 * 60_000;
/** Finished messages only: nothing that may still be sent, retried or resumed is archived. */
export const ARCHIVABLE_STATUSES = ["sent", "delivered", "undelivered", "failed", "received", "skipped"] as const;
const ARCHIVABLE = new Set<string>(ARCHIVABLE_STATUSES);

/** The next rows after the cursor that are older than the cutoff, through messages_created_at_idx (created_at, id). */
export const SCAN_SQL = `SELECT * FROM messages WHERE (created_at, id) > (?1, ?2) AND created_at < ?3 ORDER BY created_at, id LIMIT ?4`;

export type ArchiveBucket = Pick<R2Bucket, "put" | "delete">;
export type ArchiveResult = {
  cutoff: number;
  /** Messages the scan read, archived or not. */
  read: number;
  archived: number;
  keys: string[];
  /** D1 rows read by the task's reads (the state, the setting and the scan). */
  rowsRead: number;
  /** Another tick holds the task. */
  busy?: boolean;
};

type State = {
  cursor_at: number;
  cursor_id: number;
  lap_day: string;
  lease_until: number;
  pending_keys: string | null;
};
type MessageRow = Record<string, unknown> & { id: number; created_at: number; status: string };
type Part = { key: string; month: string; rows: MessageRow[] };

/** `months` calendar months before `now` (UTC); a day the earlier month lacks becomes its last day (Aug 31 → Feb 28). */
export function retentionCutoff(now: Date, months: number): number {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(now.getUTCDate(), lastDay),
    now.getUTCHours(),
    now.getUTCMinutes(),
    now.getUTCSeconds(),
    now.getUTCMilliseconds(),
  );
}

export const archiveMonth = (createdAt: number) => new Date(createdAt).toISOString().slice(0, 7);

/** One object per month per chunk, named by its first message: a retry of the chunk writes the same key again. */
export const archiveKey = (month: string, firstId: number) =>
  `messages/${month}/part-${String(firstId).padStart(12, "0")}.ndjson.gz`;

async function gzip(text: string): Promise<ArrayBuffer> {
  return new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
}

function partsOf(rows: MessageRow[]): Part[] {
  const parts: Part[] = [];
  for (const row of rows) {
    const month = archiveMonth(row.created_at);
    const part = parts.at(-1);
    if (part?.month === month) part.rows.push(row);
    else parts.push({ key: archiveKey(month, row.id), month, rows: [row] });
  }
  return parts;
}

/**
 * Cron task (decision 017): moves the oldest finished messages older than the retention (org setting, default 18
 * months) to R2 as gzipped NDJSON, one row per line as D1 holds it, then deletes them from D1 — at most `chunk` a tick.
 *
 * - Reads O(chunk): the scan continues from a cursor on messages_created_at_idx, so rows it passed because they were
 *   not finished (held, pending, …) are not read again every tick; the cursor starts over once a day to pick them up
 *   when they are. A tick with nothing to do reads the state row, the setting and one index probe.
 * - Put first, then delete, in one D1 batch with the records of the objects: a Worker that dies in between leaves
 *   the messages in D1, and the next tick archives them again under the same key (or deletes the object it cannot
 *   reuse: its key was recorded as pending before the put). No message is lost or ends up in two recorded objects.
 * - The batch sets `archiving` around the DELETE, so the counter triggers (message_daily_counts, which the message_counts view sums) keep
 *   counting archived messages; the search index drops them; compliance_events keep their rows and, for opt-outs and
 *   opt-ins, a copy of the text that caused them. Conversations keep their row (latest message and preview).
 */
export async function archiveOldMessages(
  db: Db,
  bucket: ArchiveBucket,
  now: Date,
  opts: { chunk?: number } = {},
): Promise<ArchiveResult> {
  const d1 = db.$client;
  const t = now.getTime();
  const today = now.toISOString().slice(0, 10);
  const [stateRes, settingRes] = await d1.batch([
    // raw-sql: archive
    d1.prepare(
      `SELECT cursor_at, cursor_id, lap_day, lease_until, pending_keys FROM message_archive_state WHERE id = 1`,
    ),
    // raw-sql: archive
    d1.prepare(`SELECT key, value FROM org_settings WHERE key = ?`).bind(RETENTION_KEY),
  ]);
  const state = stateRes.results[0] as State | undefined;
  if (!state) throw new Error("message_archive_state has no row (migration 0042)");
  const cutoff = retentionCutoff(now, retentionMonthsFrom(settingRes.results as OrgSettingRow[]));
  const result: ArchiveResult = {
    cutoff,
    read: 0,
    archived: 0,
    keys: [],
    rowsRead: (stateRes.meta.rows_read ?? 0) + (settingRes.meta.rows_read ?? 0),
  };
  if (state.lease_until > t) return { ...result, busy: true };

  const newLap = state.lap_day !== today;
  const [cursorAt, cursorId] = newLap ? [0, 0] : [state.cursor_at, state.cursor_id];
  // raw-sql: archive
  const scan = await d1
    .prepare(SCAN_SQL)
    .bind(cursorAt, cursorId, cutoff, opts.chunk ?? ARCHIVE_CHUNK)
    .all<MessageRow>();
  result.rowsRead += scan.meta.rows_read ?? 0;
  result.read = scan.results.length;
  const last = scan.results.at(-1);
  const next = { at: last?.created_at ?? cursorAt, id: last?.id ?? cursorId };
  const done = scan.results.filter((r) => ARCHIVABLE.has(r.status));
  const pending: string[] = state.pending_keys ? JSON.parse(state.pending_keys) : [];

  if (done.length === 0 && pending.length === 0) {
    // Nothing to archive: move the cursor past the unfinished rows it read (or start the day's lap), nothing else.
    if (last || newLap) {
      // raw-sql: archive
      await d1
        .prepare(
          `UPDATE message_archive_state SET cursor_at = ?, cursor_id = ?, lap_day = ? WHERE id = 1 AND lease_until = ?`,
        )
        .bind(next.at, next.id, today, state.lease_until)
        .run();
    }
    return result;
  }

  const parts = partsOf(done);
  const keys = parts.map((p) => p.key);
  const lease = t + ARCHIVE_LEASE_MS;
  // Take the task, recording the keys before they exist in R2; another tick that got here first wins.
  // raw-sql: archive
  const claim = await d1
    .prepare(`UPDATE message_archive_state SET lease_until = ?, pending_keys = ? WHERE id = 1 AND lease_until = ?`)
    .bind(lease, JSON.stringify(keys), state.lease_until)
    .run();
  if (claim.meta.changes !== 1) return { ...result, busy: true };

  try {
    // Objects a tick put before it died, which this chunk does not overwrite: no row is recorded in them.
    const stale = pending.filter((k) => !keys.includes(k));
    if (stale.length) await bucket.delete(stale);
    const bodies = await Promise.all(parts.map((p) => gzip(p.rows.map((r) => JSON.stringify(r)).join("\n") + "\n")));
    await Promise.all(
      parts.map((p, i) =>
        bucket.put(p.key, bodies[i], {
          httpMetadata: { contentType: "application/gzip" },
          customMetadata: { month: p.month, rows: String(p.rows.length) },
        }),
      ),
    );
    const ids = JSON.stringify(done.map((r) => r.id));
    const records = JSON.stringify(
      parts.map((p, i) => ({
        key: p.key,
        month: p.month,
        first: p.rows[0].id,
        last: p.rows.at(-1)!.id,
        rows: p.rows.length,
        bytes: bodies[i].byteLength,
      })),
    );
    await d1.batch([
      keepConsentEvidence(d1, ids),
      // raw-sql: archive
      d1.prepare(`UPDATE message_archive_state SET archiving = 1 WHERE id = 1`),
      // raw-sql: archive
      d1.prepare(`DELETE FROM messages WHERE id IN (SELECT value FROM json_each(?))`).bind(ids),
      // raw-sql: archive
      d1
        .prepare(
          `UPDATE message_archive_state SET archiving = 0, cursor_at = ?, cursor_id = ?, lap_day = ?, lease_until = 0, pending_keys = NULL WHERE id = 1`,
        )
        .bind(next.at, next.id, today),
      // A plain INSERT: a key recorded twice would mean an object overwritten, so the batch fails instead.
      // raw-sql: archive
      d1
        .prepare(
          `INSERT INTO message_archives (key, month, first_id, last_id, rows, bytes, created_at)
           SELECT value ->> 'key', value ->> 'month', value ->> 'first', value ->> 'last', value ->> 'rows', value ->> 'bytes', ?2 FROM json_each(?1)`,
        )
        .bind(records, t),
      // raw-sql: archive
      d1
        .prepare(
          `INSERT INTO message_archive_months (month, parts, rows, bytes, updated_at)
           SELECT value ->> 'month', count(*), sum(value ->> 'rows'), sum(value ->> 'bytes'), ?2 FROM json_each(?1) WHERE true GROUP BY 1
           ON CONFLICT(month) DO UPDATE SET parts = parts + excluded.parts, rows = rows + excluded.rows, bytes = bytes + excluded.bytes,
             updated_at = excluded.updated_at`,
        )
        .bind(records, t),
    ]);
  } catch (err) {
    // Let the next tick retry at once; the pending keys stay recorded so it can clean up.
    // raw-sql: archive
    await d1
      .prepare(`UPDATE message_archive_state SET lease_until = 0 WHERE id = 1 AND lease_until = ?`)
      .bind(lease)
      .run();
    throw err;
  }
  return { ...result, archived: done.length, keys };
}
