import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { broadcasts, messages } from "~/db/schema";
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
const NOT_IN_FLIGHT = sql`${messages.status} NOT IN ('queued', 'sending')`;

export async function getSendProgress(db: Db, id: number): Promise<SendProgress> {
  const b = await db
    .select({
      id: broadcasts.id,
      type: broadcasts.type,
      subject: broadcasts.subject,
      content: broadcasts.content,
      recipientCount: broadcasts.recipientCount,
      scheduledAt: broadcasts.scheduledAt,
      createdAt: broadcasts.createdAt,
    })
    .from(broadcasts)
    .where(eq(broadcasts.id, id))
    .get();
  if (!b) throw new AppError("not_found", SEND_NOT_FOUND);
  const rows = await db
    .select({ status: messages.status, n: count() })
    .from(messages)
    .where(and(eq(messages.broadcastId, id), NOT_IN_FLIGHT))
    .groupBy(messages.status);
  const counts = { waiting: 0, queued: 0, sent: 0, delivered: 0, failed: 0, skipped: 0 };
  for (const r of rows) {
    if (r.status === "pending" || r.status === "held") counts.waiting += r.n;
    else if (r.status === "sent") counts.sent += r.n;
    else if (r.status === "delivered") counts.delivered += r.n;
    else if (r.status === "failed" || r.status === "undelivered") counts.failed += r.n;
    else if (r.status === "skipped") counts.skipped += r.n;
  }
  counts.queued = Math.max(0, b.recipientCount - rows.reduce((a, r) => a + r.n, 0));
  const status = sql<"failed" | "skipped">`CASE WHEN ${messages.status} = 'skipped' THEN 'skipped' ELSE 'failed' END`;
  const reason = sql<string>`coalesce(${messages.errorMessage}, 'Unknown reason')`;
  const reasons =
    counts.failed + counts.skipped > 0
      ? await db
          .select({ status, reason, count: count() })
          .from(messages)
          .where(
            and(
              eq(messages.broadcastId, id),
              NOT_IN_FLIGHT,
              sql`${messages.status} IN ('failed', 'undelivered', 'skipped')`,
            ),
          )
          .groupBy(sql`1`, sql`2`)
          .orderBy(desc(sql`count(*)`))
          .limit(REASONS_SHOWN)
      : [];
  return {
    id: b.id,
    type: b.type,
    subject: b.subject,
    content: b.content,
    recipients: b.recipientCount,
    scheduledAt: b.scheduledAt ? b.scheduledAt.toISOString() : null,
    createdAt: b.createdAt.toISOString(),
    counts,
    reasons,
    done: counts.waiting + counts.queued === 0,
  };
}
