import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { createCampaignSchema, parseInput, TOASTS } from "~/campaigns/campaign-schema";
import { createCampaign } from "~/campaigns/create-campaign.server";
import { listCampaigns, MAX_CAMPAIGN_PAGE } from "~/campaigns/list-campaigns.server";
import { pagedCollectionRoute } from "~/http/record-route.server";

const CAMPAIGNS = {
  max: MAX_CAMPAIGN_PAGE,
  item: "a campaign",
  list: listCampaigns,
  parse: (body: unknown) => parseInput(createCampaignSchema, body, TOASTS.create),
  create: createCampaign,
};

/** GET /api/campaigns?limit&after — newest first, `X-Next-Cursor` when there is more; POST {name, description, scheduledAt, startDate, contactIds | audienceQuery, …} → 201 draft campaign. */
export const loader = async (args: LoaderFunctionArgs) =>
  pagedCollectionRoute(args, CAMPAIGNS, await requireApiUser(args));
export const action = async (args: ActionFunctionArgs) =>
  pagedCollectionRoute(args, CAMPAIGNS, await requireApiUser(args));
