import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { recordActivity } from "~/activity/log-activity.server";
import { requireApiUser } from "~/http/guard.server";
import { CAMPAIGN_NOT_FOUND, parseInput, updateCampaignSchema } from "~/campaigns/campaign-schema";
import { deleteCampaign } from "~/campaigns/delete-campaign.server";
import { getCampaign } from "~/campaigns/get-campaign.server";
import { updateCampaign } from "~/campaigns/update-campaign.server";
import { recordRoute, type RecordEndpoint } from "~/http/record-route.server";

/** PUT takes (name, description, promoCode, offerExpiration, stopOnReply); DELETE is for drafts only (else 409). */
const campaignRecord = (args: LoaderFunctionArgs): RecordEndpoint => ({
  notFound: CAMPAIGN_NOT_FOUND,
  get: getCampaign,
  update: async (db, id, body, now, actor) => {
    const input = parseInput(updateCampaignSchema, body);
    const updated = await updateCampaign(db, id, input, now);
    await recordActivity(args, actor.userId, "update_campaign", { campaignId: id, fields: Object.keys(input) });
    return updated;
  },
  remove: async (db, id, actor) => {
    await deleteCampaign(db, id);
    await recordActivity(args, actor.userId, "delete_campaign", { campaignId: id });
  },
});

/** GET /api/campaigns/:id → 200; PUT → 200; DELETE → 204. */
export const loader = async (args: LoaderFunctionArgs) =>
  recordRoute(args, campaignRecord(args), await requireApiUser(args));
export const action = async (args: ActionFunctionArgs) =>
  recordRoute(args, campaignRecord(args), await requireApiUser(args));
