import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { campaigns, type Campaign } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { CAMPAIGN_NOT_FOUND } from "./campaign-schema";

/** What the API and screens show of a campaign (SPEC §3 fields plus progress and settings). */
export function publicCampaign(c: Campaign) {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    status: c.status,
    contactCount: c.contactCount,
    sentCount: c.sentCount,
    deliveredCount: c.deliveredCount,
    responseCount: c.responseCount,
    clickCount: c.clickCount,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    scheduledAt: c.scheduledAt?.toISOString() ?? null,
    startDate: c.startDate?.toISOString() ?? null,
    startedAt: c.startedAt?.toISOString() ?? null,
    completedAt: c.completedAt?.toISOString() ?? null,
    promoCode: c.promoCode,
    offerExpiration: c.offerExpiration,
    stopOnReply: c.stopOnReply,
    /** null: picked contacts; "" all contacts; else the contacts search whose matches are enrolled at start. */
    audienceQuery: c.audienceQuery,
    /** A saved segment as the audience (decision 075): enrolled at start, each later step re-checks the contact. */
    segmentId: c.segmentId,
    /** enrolled = contactCount; waiting = still in the sequence; finished = every step done; stopped = reply, opt-out, failure. */
    progress: {
      enrolled: c.contactCount,
      waiting: c.waitingCount,
      finished: c.finishedCount,
      stopped: c.stoppedCount,
      enrolling: c.enrolling,
    },
  };
}
export type PublicCampaign = ReturnType<typeof publicCampaign>;

export async function getCampaignRow(db: Db, id: number): Promise<Campaign> {
  const c = await db.select().from(campaigns).where(eq(campaigns.id, id)).get();
  if (!c) throw new AppError("not_found", CAMPAIGN_NOT_FOUND);
  return c;
}

/** One campaign with its counters. */
export async function getCampaign(db: Db, id: number): Promise<PublicCampaign> {
  return publicCampaign(await getCampaignRow(db, id));
}
