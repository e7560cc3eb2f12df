import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { CAMPAIGN_NOT_FOUND } from "~/campaigns/campaign-schema";
import { pauseCampaign } from "~/campaigns/pause-campaign.server";
import { methodNotAllowed } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { requireId } from "~/lib/ids";
import { clientIp } from "~/lib/request.server";

/** GET on a POST-only endpoint: 401 without a session, then 405. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
}

/** POST /api/campaigns/:id/pause — running → paused; returns the updated campaign. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  if (args.request.method !== "POST") return methodNotAllowed(["POST"]);
  return apiRoute(async () => {
    const id = requireId(args.params.id, CAMPAIGN_NOT_FOUND);
    return Response.json(await pauseCampaign(args.context.db, id, { userId: user.id, ipAddress: clientIp(args.request) }, args.context.clock()));
  });
}
