import type { Db } from "~/db/client.server";
import { pageNewestFirst } from "~/db/page-newest-first.server";
import { campaigns } from "~/db/schema";
import { publicCampaign, type PublicCampaign } from "./get-campaign.server";

export const CAMPAIGN_PAGE = 50;
export const MAX_CAMPAIGN_PAGE = 200;

/** Newest first, keyset-paged on id (the primary key); counters come from the row, never from COUNT. */
export async function listCampaigns(
  db: Db,
  opts: { after?: number | null; limit?: number } = {},
): Promise<{ items: PublicCampaign[]; nextCursor: number | null }> {
  const { rows, nextCursor } = await pageNewestFirst(db, campaigns, opts, {
    page: CAMPAIGN_PAGE,
    max: MAX_CAMPAIGN_PAGE,
  });
  return { items: rows.map(publicCampaign), nextCursor };
}
