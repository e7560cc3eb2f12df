import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { CAMPAIGN_NOT_FOUND } from "~/campaigns/campaign-schema";
import { startCampaign } from "~/campaigns/start-campaign.server";
import { methodNotAllowed } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { requireId } from "~/lib/ids";
import { clientIp } from "~/lib/request.server";
import { jobQueue } from "~/jobs/job-queue.server";

/** GET on a POST-only endpoint: 401 without a session, then 405. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
}

/** POST /api/campaigns/:id/start — start a draft or resume a paused campaign; returns the updated campaign. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  if (args.request.method !== "POST") return methodNotAllowed(["POST"]);
  return apiRoute(async () => {
    const { db, clock, cloudflare } = args.context;
    const id = requireId(args.params.id, CAMPAIGN_NOT_FOUND);
    return Response.json(await startCampaign(db, jobQueue(cloudflare.env), id, { userId: user.id, ipAddress: clientIp(args.request) }, clock()));
  });
}
