import { recordActivity } from "~/activity/log-activity.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { CAMPAIGN_NOT_FOUND, parseInput, updateCampaignSchema } from "~/campaigns/campaign-schema";
import { deleteCampaign } from "~/campaigns/delete-campaign.server";
import { getCampaign } from "~/campaigns/get-campaign.server";
import { updateCampaign } from "~/campaigns/update-campaign.server";
import { methodNotAllowed, readJson } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { requireId } from "~/lib/ids";

/** GET /api/campaigns/:id. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiRoute(async () => Response.json(await getCampaign(args.context.db, requireId(args.params.id, CAMPAIGN_NOT_FOUND))));
}

/** PUT /api/campaigns/:id (name, description, promoCode, offerExpiration, stopOnReply); DELETE (draft only → else 409). */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  const { request, context } = args;
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed(["GET", "PUT", "DELETE"]);
  return apiRoute(async () => {
    const id = requireId(args.params.id, CAMPAIGN_NOT_FOUND);
    if (request.method === "DELETE") {
      await deleteCampaign(context.db, id);
      await recordActivity(args, user.id, "delete_campaign", { campaignId: id });
      return new Response(null, { status: 204 });
    }
    const input = parseInput(updateCampaignSchema, await readJson(request));
    const updated = await updateCampaign(context.db, id, input, context.clock());
    await recordActivity(args, user.id, "update_campaign", { campaignId: id, fields: Object.keys(input) });
    return Response.json(updated);
  });
}
