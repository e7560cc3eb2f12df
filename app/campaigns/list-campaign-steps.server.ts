import { asc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { campaignSteps, type CampaignStep } from "~/db/schema";
import { delayLabel } from "./delay-label";
import { getCampaignRow } from "./get-campaign.server";
import { formatClock } from "./send-window";

/** What the API and the step editor show of a step. */
export function publicStep(s: CampaignStep) {
  return {
    id: s.id,
    campaignId: s.campaignId,
    stepNumber: s.stepNumber,
    name: s.name,
    messageType: s.messageType,
    subject: s.subject,
    content: s.content,
    delayDays: s.delayDays,
    delayHours: s.delayHours,
    delayLabel: delayLabel(s.delayDays, s.delayHours),
    isActive: s.isActive,
    /** "HH:MM" in the contact's zone, or null for no window. */
    windowStart: s.windowStart === null ? null : formatClock(s.windowStart),
    windowEnd: s.windowEnd === null ? null : formatClock(s.windowEnd),
    windowWeekdays: s.windowWeekdays,
    /** Tracked links first clicked in this step's texts (decision 068). */
    clickCount: s.clickCount,
    /** The picture its texts carry as MMS (decision 076): its name and type, or null. */
    picture: s.picture ? { filename: s.picture.filename, contentType: s.picture.contentType } : null,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
export type PublicStep = ReturnType<typeof publicStep>;

/** The campaign's steps in order (404 for an unknown campaign). */
export async function listCampaignSteps(db: Db, campaignId: number): Promise<PublicStep[]> {
  await getCampaignRow(db, campaignId);
  const rows = await db
    .select()
    .from(campaignSteps)
    .where(eq(campaignSteps.campaignId, campaignId))
    .orderBy(asc(campaignSteps.stepNumber));
  return rows.map(publicStep);
}
