import { sql } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import type { CampaignStep } from "~/db/schema";
import { getCampaignRow } from "./get-campaign.server";
import { type ValidStep } from "./campaign-schema";
import { publicStep, type PublicStep } from "./list-campaign-steps.server";
import { rescheduleWaitingStatement } from "./reschedule-waiting.server";

type StepRow = Record<string, unknown>;
const toStep = (r: StepRow): CampaignStep => ({
  id: r.id as number,
  campaignId: r.campaign_id as number,
  stepNumber: r.step_number as number,
  name: r.name as string,
  messageType: r.message_type as CampaignStep["messageType"],
  subject: (r.subject as string | null) ?? null,
  content: r.content as string,
  delayDays: r.delay_days as number,
  delayHours: r.delay_hours as number,
  isActive: Boolean(r.is_active),
  position: r.position as number,
  windowStart: (r.window_start as number | null) ?? null,
  windowEnd: (r.window_end as number | null) ?? null,
  windowWeekdays: Boolean(r.window_weekdays),
  createdAt: new Date(r.created_at as number),
  updatedAt: new Date(r.updated_at as number),
});
export { toStep as stepFromRow };

/**
 * Appends a step: number = highest + 1 and a new position after every other, in one statement (no read-then-write
 * race). A step added to a started campaign reaches every contact that has not passed its position.
 */
export async function addCampaignStep(db: Db, campaignId: number, step: ValidStep, now: Date): Promise<PublicStep> {
  const c = await getCampaignRow(db, campaignId);
  const t = now.getTime();
  const insert = db.run(sql`
    INSERT INTO campaign_steps (campaign_id, step_number, position, name, message_type, subject, content, delay_days, delay_hours, is_active,
      window_start, window_end, window_weekdays, created_at, updated_at)
    VALUES (${campaignId},
      (SELECT coalesce(max(step_number), 0) + 1 FROM campaign_steps WHERE campaign_id = ${campaignId}),
      (SELECT coalesce(max(position), 0) + 1 FROM campaign_steps WHERE campaign_id = ${campaignId}),
      ${step.name}, ${step.messageType}, ${step.subject}, ${step.content}, ${step.delayDays}, ${step.delayHours}, ${step.isActive ? 1 : 0},
      ${step.windowStart}, ${step.windowEnd}, ${step.windowWeekdays ? 1 : 0}, ${t}, ${t})
    RETURNING *`);
  const started = c.status === "running" || c.status === "paused";
  const [res] = (await runBatch(
    db,
    started ? [insert, rescheduleWaitingStatement(db, campaignId, now)] : [insert],
  )) as [D1Result<StepRow>];
  return publicStep(toStep(res.results[0]));
}
