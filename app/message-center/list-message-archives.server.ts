import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { loadRetentionMonths } from "../messaging/org-settings.server";

/** Parts streamed by one download at most: each is one R2 read, a subrequest, of which a request may make ~1,000 (Paid plan). */
export const PARTS_PER_DOWNLOAD = 500;

export type ArchiveMonth = {
  month: string;
  parts: number;
  messages: number;
  bytes: number;
  updatedAt: string;
  files: number;
};

/** The archive screen: every archived month, newest first (one summary row each), and the retention in force. */
export async function listMessageArchives(db: Db) {
  const [rows, retentionMonths] = await Promise.all([
    db.all<{ month: string; parts: number; rows: number; bytes: number; updated_at: number }>(
      sql`SELECT month, parts, rows, bytes, updated_at FROM message_archive_months ORDER BY month DESC`,
    ),
    loadRetentionMonths(db),
  ]);
  const months = rows.map(
    (r): ArchiveMonth => ({
      month: r.month,
      parts: r.parts,
      messages: r.rows,
      bytes: r.bytes,
      updatedAt: new Date(r.updated_at).toISOString(),
      files: Math.ceil(r.parts / PARTS_PER_DOWNLOAD),
    }),
  );
  return { months, retentionMonths };
}
