import { desc, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { campaigns } from "~/db/schema";
import { publicCampaign, type PublicCampaign } from "./get-campaign.server";

export const CAMPAIGN_PAGE = 50;
export const MAX_CAMPAIGN_PAGE = 200;

/** Newest first, keyset-paged on id (the primary key); counters come from the row, never from COUNT. */
export async function listCampaigns(db: Db, opts: { after?: number | null; limit?: number } = {}): Promise<{ campaigns: PublicCampaign[]; nextCursor: number | null }> {
  const limit = Math.min(Math.max(opts.limit ?? CAMPAIGN_PAGE, 1), MAX_CAMPAIGN_PAGE);
  const rows = await db
    .select()
    .from(campaigns)
    .where(opts.after ? lt(campaigns.id, opts.after) : undefined)
    .orderBy(desc(campaigns.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return { campaigns: page.map(publicCampaign), nextCursor: rows.length > limit ? page.at(-1)!.id : null };
}
