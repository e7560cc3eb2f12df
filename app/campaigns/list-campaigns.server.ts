import type { Db } from "~/db/client.server";
import { pageNewestFirst, type PageOpts } from "~/db/page-newest-first.server";
import { campaigns } from "~/db/schema";
import { publicCampaign, type PublicCampaign } from "./get-campaign.server";

export const CAMPAIGN_PAGE = 50;
export const MAX_CAMPAIGN_PAGE = 200;

/** Newest first, keyset-paged on id (the primary key); counters come from the row, never from COUNT. */
export function listCampaigns(
  db: Db,
  opts: PageOpts = {},
): Promise<{ items: PublicCampaign[]; nextCursor: number | null }> {
  return pageNewestFirst(db, campaigns, opts, { page: CAMPAIGN_PAGE, max: MAX_CAMPAIGN_PAGE }, publicCampaign);
}
