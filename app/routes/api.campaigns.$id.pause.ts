import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { postOnly } from "~/messaging/api-send.server";
import { CAMPAIGN_NOT_FOUND } from "~/campaigns/campaign-schema";
import { pauseCampaign } from "~/campaigns/pause-campaign.server";
import { methodNotAllowed } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { requireId } from "~/lib/ids";
import { clientIp } from "~/lib/request.server";

export const loader = postOnly;

/** POST /api/campaigns/:id/pause — running → paused; returns the updated campaign. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  if (args.request.method !== "POST") return methodNotAllowed(["POST"]);
  return apiRoute(async () => {
    const id = requireId(args.params.id, CAMPAIGN_NOT_FOUND);
    return Response.json(await pauseCampaign(args.context.db, id, { userId: user.id, ipAddress: clientIp(args.request) }, args.context.clock()));
  });
}
