import { and, eq, gt, gte, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { campaignEnrollments, campaignSteps } from "~/db/schema";

/**
 * After a step's delay, active flag, addition or deletion in a started campaign: every waiting enrolment's due time
 * becomes anchor + the delay of the step it will now get (the first active step at or after its position). Rows
 * already due are left to the dispatcher, which resolves the step again; send windows are re-applied there.
 * One statement over the campaign's waiting rows (campaign/status index).
 */
export function rescheduleWaitingStatement(db: Db, campaignId: number, now: Date) {
  const e = campaignEnrollments;
  const s = campaignSteps;
  const nextDelayMs = db
    .select({ ms: sql`(${s.delayDays} * 86400 + ${s.delayHours} * 3600) * 1000` })
    .from(s)
    .where(and(eq(s.campaignId, e.campaignId), gte(s.position, e.nextStepNumber), eq(s.isActive, true)))
    .orderBy(s.position)
    .limit(1);
  return db
    .update(e)
    .set({ nextRunAt: sql`${e.anchorAt} + coalesce(${nextDelayMs}, 0)` })
    .where(
      and(
        eq(e.campaignId, campaignId),
        inArray(e.status, ["active", "paused"]),
        isNotNull(e.anchorAt),
        gt(e.nextRunAt, now),
      ),
    );
}
