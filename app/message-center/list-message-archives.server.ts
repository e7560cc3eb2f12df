import { desc } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { messageArchiveMonths } from "~/db/schema";
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
    db.select().from(messageArchiveMonths).orderBy(desc(messageArchiveMonths.month)),
    loadRetentionMonths(db),
  ]);
  const months = rows.map(
    (r): ArchiveMonth => ({
      month: r.month,
      parts: r.parts,
      messages: r.rows,
      bytes: r.bytes,
      updatedAt: new Date(r.updatedAt).toISOString(),
      files: Math.ceil(r.parts / PARTS_PER_DOWNLOAD),
    }),
  );
  return { months, retentionMonths };
}
