import { and, count, eq, inArray, sql } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { campaigns, campaignSteps, sequenceTriggers, type Campaign } from "~/db/schema";
import type { EnrollCampaignJob } from "~/jobs/jobs";
import { AppError } from "~/lib/app-error";
import type { JobQueue } from "~/lib/job-queue";
import { TOASTS } from "./campaign-schema";
import { getCampaignRow, publicCampaign, type PublicCampaign } from "./get-campaign.server";
import type { Actor } from "~/lib/actor";

/** The first step counts from the scheduled start (`scheduledAt`, else `startDate`) when it is in the future, else now. */
export function firstStepAnchor(c: Pick<Campaign, "scheduledAt" | "startDate">, now: Date): number {
  const planned = (c.scheduledAt ?? c.startDate)?.getTime() ?? 0;
  return Math.max(planned, now.getTime());
}

/**
 * draft/paused → running (start, or resume). The audience is enrolled and held contacts are released by the
 * `enroll-campaign` job in bounded chunks (never one statement per contact, never work that grows with the
 * audience inside this request); held messages go back to the pipeline there too. Logs `start_campaign`.
 */
export async function startCampaign(
  db: Db,
  queue: JobQueue,
  id: number,
  actor: Actor,
  now: Date,
): Promise<PublicCampaign> {
  const c = await getCampaignRow(db, id);
  if (c.status === "completed")
    throw new AppError("conflict", "This campaign is completed and cannot be started again", { title: TOASTS.start });
  if (c.status === "running")
    throw new AppError("conflict", "This campaign is already running", { title: TOASTS.start });
  // A campaign that a lead trigger rule feeds may start empty: its contacts are the leads to come (decision 037).
  if (c.contactCount === 0 && c.audienceQuery === null && c.segmentId === null && !(await fedByTrigger(db, id))) {
    throw new AppError("conflict", "Add contacts before starting the campaign", { title: TOASTS.start });
  }
  const active = await db
    .select({ n: count() })
    .from(campaignSteps)
    .where(and(eq(campaignSteps.campaignId, id), eq(campaignSteps.isActive, true)))
    .get();
  if (!active?.n)
    throw new AppError("conflict", "Add at least one active step before starting the campaign", {
      title: TOASTS.start,
    });
  const t = now.getTime();
  const [updated] = (await runBatch(db, [
    db
      .update(campaigns)
      .set({
        status: "running",
        enrolling: true,
        startedAt: sql`coalesce(${campaigns.startedAt}, ${t})`,
        updatedAt: now,
      })
      .where(and(eq(campaigns.id, id), inArray(campaigns.status, ["draft", "paused"]))),
    // Logged only when the transition happened (changes() = the UPDATE just before, same transaction).
    // raw-sql: guarded-insert
    db.run(sql`INSERT INTO activity_log (user_id, action, details, ip_address, created_at)
               SELECT ${actor.userId}, 'start_campaign', json_object('campaignId', ${id}, 'name', ${c.name}, 'resumed', ${c.status === "paused" ? 1 : 0}), ${actor.ipAddress}, ${t} WHERE changes() > 0`),
  ])) as D1Result[];
  if ((updated.meta.changes ?? 0) === 0)
    throw new AppError("conflict", "The campaign changed state meanwhile; reload and try again", {
      title: TOASTS.start,
    });
  const job: EnrollCampaignJob = { v: 1, type: "enroll-campaign", campaignId: id, afterContactId: null };
  await queue.send(job, { contentType: "json" });
  return publicCampaign(await getCampaignRow(db, id));
}

/** Whether an enabled trigger rule starts this campaign (sequence_triggers_campaign_idx). */
async function fedByTrigger(db: Db, campaignId: number): Promise<boolean> {
  const row = await db
    .select({ id: sequenceTriggers.id })
    .from(sequenceTriggers)
    .where(and(eq(sequenceTriggers.campaignId, campaignId), eq(sequenceTriggers.enabled, true)))
    .limit(1)
    .get();
  return row !== undefined;
}
