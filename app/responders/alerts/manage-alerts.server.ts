import { and, count, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { aiClassifications, alerts, contacts } from "~/db/schema";
import { epochMs } from "~/db/stored-values.server";
import { AppError } from "~/lib/app-error";
import { ALERT_NOT_FOUND } from "./alert-schema";
import { BELL_COUNT_CAP } from "./bell";

export type AlertListItem = Awaited<ReturnType<typeof listAlerts>>["alerts"][number];

/** The bell shows "99+" past this: the count reads at most this many index entries. */
export { BELL_COUNT_CAP };

/** Unacknowledged alerts, bounded: an indexed read of at most BELL_COUNT_CAP + 1 rows. */
export async function countUnacknowledged(db: Db): Promise<number> {
  const open = db
    .select({ one: sql`1` })
    .from(alerts)
    .where(eq(alerts.status, "unacknowledged"))
    .limit(BELL_COUNT_CAP + 1)
    .as("open");
  const row = await db.select({ n: count() }).from(open).get();
  return row?.n ?? 0;
}

/** One page of alerts, newest first (keyset on id); `status` filters through alerts_status_idx. */
export async function listAlerts(
  db: Db,
  opts: { status?: "unacknowledged" | "acknowledged"; after?: number; limit?: number } = {},
) {
  const limit = Math.min(opts.limit ?? 25, 100);
  const rows = await db
    .select({
      id: alerts.id,
      contactId: alerts.contactId,
      phone: alerts.phone,
      content: alerts.content,
      priority: alerts.priority,
      category: alerts.category,
      intent: alerts.intent,
      sentiment: alerts.sentiment,
      confidence: alerts.confidence,
      status: alerts.status,
      verdict: alerts.verdict,
      escalatedAt: epochMs(alerts.escalatedAt),
      acknowledgedAt: epochMs(alerts.acknowledgedAt),
      isTest: alerts.isTest,
      createdAt: epochMs(alerts.createdAt),
      firstName: contacts.firstName,
      lastName: contacts.lastName,
    })
    .from(alerts)
    .leftJoin(contacts, eq(contacts.id, alerts.contactId))
    .where(
      and(opts.status ? eq(alerts.status, opts.status) : undefined, opts.after ? lt(alerts.id, opts.after) : undefined),
    )
    .orderBy(desc(alerts.id))
    .limit(limit + 1);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  return { alerts: page, nextCursor: more ? page[page.length - 1].id : null };
}

/** The first acknowledgement stands: a second one keeps its time and person. */
const acknowledged = (userId: number, now: Date) => ({
  status: "acknowledged" as const,
  acknowledgedAt: sql`coalesce(${alerts.acknowledgedAt}, ${now.getTime()})`,
  acknowledgedBy: sql`coalesce(${alerts.acknowledgedBy}, ${userId})`,
});

export async function acknowledgeAlert(db: Db, id: number, userId: number, now: Date) {
  const res = await db
    .update(alerts)
    .set(acknowledged(userId, now))
    .where(eq(alerts.id, id))
    .returning({ id: alerts.id });
  if (!res.length) throw new AppError("not_found", ALERT_NOT_FOUND);
}

/**
 * A person's mark on the alert's classification (right or wrong). Marking also acknowledges: someone looked.
 * The classifier's own record (ai_classifications, app/ai) carries the mark too when the alert has one.
 */
export async function markAlert(db: Db, id: number, verdict: "right" | "wrong", userId: number, now: Date) {
  const res = await db
    .update(alerts)
    .set({ verdict, ...acknowledged(userId, now) })
    .where(eq(alerts.id, id))
    .returning({ id: alerts.id, classificationId: alerts.classificationId });
  if (!res.length) throw new AppError("not_found", ALERT_NOT_FOUND);
  if (res[0].classificationId !== null) {
    await db
      .update(aiClassifications)
      .set({ markedCorrect: verdict === "right" })
      .where(eq(aiClassifications.id, res[0].classificationId));
  }
  return res[0];
}
