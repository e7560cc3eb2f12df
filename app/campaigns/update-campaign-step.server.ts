import { eq } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { campaignSteps, campaigns, type CampaignStep } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { STEP_NOT_FOUND, type ValidStep } from "./campaign-schema";
import { publicStep, type PublicStep } from "./list-campaign-steps.server";
import { rescheduleWaitingStatement } from "./reschedule-waiting.server";

export async function getStepRow(db: Db, stepId: number): Promise<CampaignStep & { campaignStatus: string }> {
  const row = await db
    .select({ step: campaignSteps, campaignStatus: campaigns.status })
    .from(campaignSteps)
    .innerJoin(campaigns, eq(campaigns.id, campaignSteps.campaignId))
    .where(eq(campaignSteps.id, stepId))
    .get();
  if (!row) throw new AppError("not_found", STEP_NOT_FOUND);
  return { ...row.step, campaignStatus: row.campaignStatus };
}

/**
 * Edits a step. Messages not yet created use the new text; a changed delay or active flag re-times the contacts
 * waiting for it in a started campaign. The number and position stay.
 */
export async function updateCampaignStep(db: Db, stepId: number, step: ValidStep, now: Date): Promise<PublicStep> {
  const current = await getStepRow(db, stepId);
  const update = db
    .update(campaignSteps)
    .set({ ...step, updatedAt: now })
    .where(eq(campaignSteps.id, stepId))
    .returning();
  const timing =
    step.delayDays !== current.delayDays ||
    step.delayHours !== current.delayHours ||
    step.isActive !== current.isActive;
  const started = current.campaignStatus === "running" || current.campaignStatus === "paused";
  const [rows] = (await runBatch(
    db,
    timing && started ? [update, rescheduleWaitingStatement(db, current.campaignId, now)] : [update],
  )) as [CampaignStep[]];
  if (!rows[0]) throw new AppError("not_found", STEP_NOT_FOUND);
  return publicStep(rows[0]);
}
