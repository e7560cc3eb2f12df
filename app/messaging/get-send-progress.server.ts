import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { AppError } from "~/lib/app-error";

export const SEND_NOT_FOUND = "Send not found";
const REASONS_SHOWN = 10;

export interface SendProgress {
  id: number;
  type: "sms" | "email";
  subject: string | null;
  content: string;
  recipients: number;
  scheduledAt: string | null;
  createdAt: string;
  counts: { waiting: number; queued: number; sent: number; delivered: number; failed: number; skipped: number };
  /** Reasons of failed/skipped messages with how many each (the most common first). */
  reasons: { status: "failed" | "skipped"; reason: string; count: number }[];
  done: boolean;
}

/**
 * One broadcast's progress: counts by status from the (broadcast_id, status) index — bounded by the number of
 * statuses, not read row by row — and the reasons of the failed/skipped ones (those rows only). The index leaves out
 * the in-flight steps (migration 0044: a message passing through them writes nothing there), so queued + sending is
 * the recipients minus every other status. Each query repeats the index's condition so SQLite can use it.
 */
/** messages_broadcast_status_idx's condition, written as the index is (migration 0044). */
const NOT_IN_FLIGHT = sql`status NOT IN ('queued', 'sending')`;

export async function getSendProgress(db: Db, id: number): Promise<SendProgress> {
  const b = await db.get<{
    id: number;
    type: "sms" | "email";
    subject: string | null;
    content: string;
    recipient_count: number;
    scheduled_at: number | null;
    created_at: number;
  }>(
    sql`SELECT id, type, subject, content, recipient_count, scheduled_at, created_at FROM broadcasts WHERE id = ${id}`,
  );
  if (!b) throw new AppError("not_found", SEND_NOT_FOUND);
  const rows = await db.all<{ status: string; n: number }>(
    sql`SELECT status, count(*) AS n FROM messages WHERE broadcast_id = ${id} AND ${NOT_IN_FLIGHT} GROUP BY status`,
  );
  const counts = { waiting: 0, queued: 0, sent: 0, delivered: 0, failed: 0, skipped: 0 };
  for (const r of rows) {
    if (r.status === "pending" || r.status === "held") counts.waiting += r.n;
    else if (r.status === "sent") counts.sent += r.n;
    else if (r.status === "delivered") counts.delivered += r.n;
    else if (r.status === "failed" || r.status === "undelivered") counts.failed += r.n;
    else if (r.status === "skipped") counts.skipped += r.n;
  }
  counts.queued = Math.max(0, b.recipient_count - rows.reduce((a, r) => a + r.n, 0));
  const reasons =
    counts.failed + counts.skipped > 0
      ? await db.all<{ status: "failed" | "skipped"; reason: string; count: number }>(sql`
          SELECT CASE WHEN status = 'skipped' THEN 'skipped' ELSE 'failed' END AS status, coalesce(error_message, 'Unknown reason') AS reason, count(*) AS count
          FROM messages WHERE broadcast_id = ${id} AND ${NOT_IN_FLIGHT} AND status IN ('failed', 'undelivered', 'skipped')
          GROUP BY 1, 2 ORDER BY count DESC LIMIT ${REASONS_SHOWN}`)
      : [];
  return {
    id: b.id,
    type: b.type,
    subject: b.subject,
    content: b.content,
    recipients: b.recipient_count,
    scheduledAt: b.scheduled_at ? new Date(b.scheduled_at).toISOString() : null,
    createdAt: new Date(b.created_at).toISOString(),
    counts,
    reasons,
    done: counts.waiting + counts.queued === 0,
  };
}
