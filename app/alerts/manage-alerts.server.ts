import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { AppError } from "~/lib/app-error";
import { ALERT_NOT_FOUND } from "./alert-schema";
import { BELL_COUNT_CAP } from "./bell";

export type AlertListItem = {
  id: number;
  contactId: number | null;
  phone: string | null;
  content: string;
  priority: string;
  category: string;
  intent: string | null;
  sentiment: string | null;
  confidence: number | null;
  status: "unacknowledged" | "acknowledged";
  verdict: "right" | "wrong" | null;
  escalatedAt: number | null;
  acknowledgedAt: number | null;
  isTest: boolean;
  createdAt: number;
  firstName: string | null;
  lastName: string | null;
};

/** The bell shows "99+" past this: the count reads at most this many index entries. */
export { BELL_COUNT_CAP };

/** Unacknowledged alerts, bounded: an indexed read of at most BELL_COUNT_CAP + 1 rows. */
export async function countUnacknowledged(db: Db): Promise<number> {
  const row = await db.get<{ n: number }>(sql`
    SELECT count(*) AS n FROM (SELECT 1 FROM alerts WHERE status = 'unacknowledged' LIMIT ${BELL_COUNT_CAP + 1})`);
  return row?.n ?? 0;
}

/** One page of alerts, newest first (keyset on id); `status` filters through alerts_status_idx. */
export async function listAlerts(db: Db, opts: { status?: "unacknowledged" | "acknowledged"; after?: number; limit?: number } = {}) {
  const limit = Math.min(opts.limit ?? 25, 100);
  const rows = await db.all<AlertListItem>(sql`
    SELECT a.id, a.contact_id AS contactId, a.phone, a.content, a.priority, a.category, a.intent, a.sentiment, a.confidence, a.status,
      a.verdict, a.escalated_at AS escalatedAt, a.acknowledged_at AS acknowledgedAt, a.is_test AS isTest, a.created_at AS createdAt,
      c.first_name AS firstName, c.last_name AS lastName
    FROM alerts a LEFT JOIN contacts c ON c.id = a.contact_id
    WHERE ${opts.status ? sql`a.status = ${opts.status}` : sql`1`} AND ${opts.after ? sql`a.id < ${opts.after}` : sql`1`}
    ORDER BY a.id DESC LIMIT ${limit + 1}`);
  const more = rows.length > limit;
  const page = rows.slice(0, limit).map((r) => ({ ...r, isTest: !!r.isTest }));
  return { alerts: page, nextCursor: more ? page[page.length - 1].id : null };
}

export async function acknowledgeAlert(db: Db, id: number, userId: number, now: Date) {
  const res = await db.all<{ id: number }>(sql`
    UPDATE alerts SET status = 'acknowledged', acknowledged_at = coalesce(acknowledged_at, ${now.getTime()}), acknowledged_by = coalesce(acknowledged_by, ${userId})
    WHERE id = ${id} RETURNING id`);
  if (!res.length) throw new AppError("not_found", ALERT_NOT_FOUND);
}

/**
 * A person's mark on the alert's classification (right or wrong). Marking also acknowledges: someone looked.
 * The classifier's own record (ai_classifications, app/ai) carries the mark too when the alert has one.
 */
export async function markAlert(db: Db, id: number, verdict: "right" | "wrong", userId: number, now: Date) {
  const res = await db.all<{ id: number; classificationId: number | null }>(sql`
    UPDATE alerts SET verdict = ${verdict}, status = 'acknowledged', acknowledged_at = coalesce(acknowledged_at, ${now.getTime()}),
      acknowledged_by = coalesce(acknowledged_by, ${userId})
    WHERE id = ${id} RETURNING id, classification_id AS classificationId`);
  if (!res.length) throw new AppError("not_found", ALERT_NOT_FOUND);
  if (res[0].classificationId !== null) {
    await db.run(sql`UPDATE ai_classifications SET marked_correct = ${verdict === "right" ? 1 : 0} WHERE id = ${res[0].classificationId}`);
  }
  return res[0];
}
