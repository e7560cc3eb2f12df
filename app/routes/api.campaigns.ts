import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { createCampaignSchema, parseInput, TOASTS } from "~/campaigns/campaign-schema";
import { createCampaign } from "~/campaigns/create-campaign.server";
import { listCampaigns, MAX_CAMPAIGN_PAGE } from "~/campaigns/list-campaigns.server";
import { methodNotAllowed, pageQuery, pageResponse, readJson } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { clientIp } from "~/lib/request.server";

/** GET /api/campaigns?limit&after — newest first; `X-Next-Cursor` when there is more. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiRoute(async () => {
    const page = await listCampaigns(args.context.db, pageQuery(args.request, MAX_CAMPAIGN_PAGE, "a campaign"));
    return pageResponse(page.campaigns, page);
  });
}

/** POST /api/campaigns {name, description, scheduledAt, startDate, contactIds | audienceQuery, …} → 201 draft campaign. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  if (args.request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  return apiRoute(async () => {
    const input = parseInput(createCampaignSchema, await readJson(args.request), TOASTS.create);
    const campaign = await createCampaign(args.context.db, input, { userId: user.id, ipAddress: clientIp(args.request) }, args.context.clock());
    return Response.json(campaign, { status: 201 });
  });
}
