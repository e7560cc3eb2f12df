import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

/**
 * After a step's delay, active flag, addition or deletion in a started campaign: every waiting enrolment's due time
 * becomes anchor + the delay of the step it will now get (the first active step at or after its position). Rows
 * already due are left to the dispatcher, which resolves the step again; send windows are re-applied there.
 * One statement over the campaign's waiting rows (campaign/status index).
 */
export function rescheduleWaitingStatement(db: Db, campaignId: number, now: Date) {
  return db.run(sql`
    UPDATE campaign_enrollments SET next_run_at = anchor_at + coalesce((
        SELECT (s.delay_days * 86400 + s.delay_hours * 3600) * 1000 FROM campaign_steps s
        WHERE s.campaign_id = campaign_enrollments.campaign_id AND s.position >= campaign_enrollments.next_step_number AND s.is_active = 1
        ORDER BY s.position LIMIT 1), 0)
    WHERE campaign_id = ${campaignId} AND status IN ('active', 'paused') AND anchor_at IS NOT NULL AND next_run_at > ${now.getTime()}`);
}
