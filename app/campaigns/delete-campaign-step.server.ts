import { and, eq, gt, lt, sql } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { campaignSteps } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { STEP_NOT_FOUND } from "./campaign-schema";
import { rescheduleWaitingStatement } from "./reschedule-waiting.server";
import { getStepRow } from "./update-campaign-step.server";

/**
 * Deletes a step and renumbers the rest 1…n in one transaction. The unique (campaign_id, step_number) index is
 * checked per row, so the later steps first move to negative numbers and then to their final ones. Contacts
 * waiting for the deleted step get the next active one (positions never change).
 */
export async function deleteCampaignStep(db: Db, stepId: number, now: Date): Promise<void> {
  const step = await getStepRow(db, stepId);
  const started = step.campaignStatus === "running" || step.campaignStatus === "paused";
  const [deleted] = (await runBatch(db, [
    db.delete(campaignSteps).where(eq(campaignSteps.id, stepId)),
    db
      .update(campaignSteps)
      .set({ stepNumber: sql`-${campaignSteps.stepNumber}` })
      .where(and(eq(campaignSteps.campaignId, step.campaignId), gt(campaignSteps.stepNumber, step.stepNumber))),
    db
      .update(campaignSteps)
      .set({ stepNumber: sql`-${campaignSteps.stepNumber} - 1` })
      .where(and(eq(campaignSteps.campaignId, step.campaignId), lt(campaignSteps.stepNumber, 0))),
    ...(started ? [rescheduleWaitingStatement(db, step.campaignId, now)] : []),
  ])) as D1Result[];
  if ((deleted.meta.changes ?? 0) === 0) throw new AppError("not_found", STEP_NOT_FOUND);
}
