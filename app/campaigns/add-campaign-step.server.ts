import { eq, sql } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { campaignSteps, type CampaignStep } from "~/db/schema";
import { getCampaignRow } from "./get-campaign.server";
import { type ValidStep } from "./campaign-schema";
import { publicStep, type PublicStep } from "./list-campaign-steps.server";
import { rescheduleWaitingStatement } from "./reschedule-waiting.server";

/**
 * Appends a step: number = highest + 1 and a new position after every other, in one statement (no read-then-write
 * race). A step added to a started campaign reaches every contact that has not passed its position.
 */
export async function addCampaignStep(db: Db, campaignId: number, step: ValidStep, now: Date): Promise<PublicStep> {
  const c = await getCampaignRow(db, campaignId);
  const s = campaignSteps;
  const next = (column: typeof s.stepNumber | typeof s.position) =>
    sql`${db
      .select({ n: sql`coalesce(max(${column}), 0) + 1` })
      .from(s)
      .where(eq(s.campaignId, campaignId))}`;
  const insert = db
    .insert(s)
    .values({
      campaignId,
      stepNumber: next(s.stepNumber),
      position: next(s.position),
      name: step.name,
      messageType: step.messageType,
      subject: step.subject,
      content: step.content,
      delayDays: step.delayDays,
      delayHours: step.delayHours,
      isActive: step.isActive,
      windowStart: step.windowStart,
      windowEnd: step.windowEnd,
      windowWeekdays: step.windowWeekdays,
      picture: step.picture ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const started = c.status === "running" || c.status === "paused";
  const [res] = (await runBatch(
    db,
    started ? [insert, rescheduleWaitingStatement(db, campaignId, now)] : [insert],
  )) as [CampaignStep[]];
  return publicStep(res[0]);
}
