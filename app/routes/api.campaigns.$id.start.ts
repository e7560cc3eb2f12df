import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { postOnly } from "~/messaging/api-send.server";
import { CAMPAIGN_NOT_FOUND } from "~/campaigns/campaign-schema";
import { startCampaign } from "~/campaigns/start-campaign.server";
import { methodNotAllowed } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { requireId } from "~/lib/ids";
import { clientIp } from "~/lib/request.server";

export const loader = postOnly;

/** POST /api/campaigns/:id/start — start a draft or resume a paused campaign; returns the updated campaign. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  if (args.request.method !== "POST") return methodNotAllowed(["POST"]);
  return apiRoute(async () => {
    const { db, clock, cloudflare } = args.context;
    const id = requireId(args.params.id, CAMPAIGN_NOT_FOUND);
    return Response.json(await startCampaign(db, cloudflare.env.JOBS, id, { userId: user.id, ipAddress: clientIp(args.request) }, clock()));
  });
}
