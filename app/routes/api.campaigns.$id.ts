import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { recordActivity } from "~/activity/log-activity.server";
import { requireApiUser } from "~/auth/guard.server";
import { CAMPAIGN_NOT_FOUND, parseInput, updateCampaignSchema } from "~/campaigns/campaign-schema";
import { deleteCampaign } from "~/campaigns/delete-campaign.server";
import { getCampaign } from "~/campaigns/get-campaign.server";
import { updateCampaign } from "~/campaigns/update-campaign.server";
import { changeRecord, getRecord, type RecordEndpoint } from "~/lib/record-route.server";

/** PUT takes (name, description, promoCode, offerExpiration, stopOnReply); DELETE is for drafts only (else 409). */
const campaignRecord = (userId: number): RecordEndpoint => ({
  notFound: CAMPAIGN_NOT_FOUND,
  get: ({ context }, id) => getCampaign(context.db, id),
  update: async (args, id, body) => {
    const input = parseInput(updateCampaignSchema, body);
    const updated = await updateCampaign(args.context.db, id, input, args.context.clock());
    await recordActivity(args, userId, "update_campaign", { campaignId: id, fields: Object.keys(input) });
    return updated;
  },
  remove: async (args, id) => {
    await deleteCampaign(args.context.db, id);
    await recordActivity(args, userId, "delete_campaign", { campaignId: id });
  },
});

/** GET /api/campaigns/:id. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireApiUser(args);
  return getRecord(args, campaignRecord(user.id));
}

/** PUT /api/campaigns/:id → 200; DELETE → 204. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  return changeRecord(args, campaignRecord(user.id));
}
