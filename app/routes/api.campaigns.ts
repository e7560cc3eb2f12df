import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { requireApiUser } from "~/auth/guard.server";
import { createCampaignSchema, parseInput, TOASTS } from "~/campaigns/campaign-schema";
import { createCampaign } from "~/campaigns/create-campaign.server";
import { listCampaigns, MAX_CAMPAIGN_PAGE } from "~/campaigns/list-campaigns.server";
import { methodNotAllowed, readJson } from "~/lib/api.server";
import { AppError } from "~/lib/app-error";
import { apiRoute } from "~/lib/http.server";
import { clientIp } from "~/lib/request.server";

const listQuery = z.object({
  limit: z.coerce.number().int("limit must be an integer").min(1, "limit must be at least 1").max(MAX_CAMPAIGN_PAGE, `limit must be at most ${MAX_CAMPAIGN_PAGE}`).optional(),
  after: z.coerce.number().int().positive("after must be a campaign id").optional(),
});

/** GET /api/campaigns?limit&after — newest first; `X-Next-Cursor` when there is more. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiRoute(async () => {
    const parsed = listQuery.safeParse(Object.fromEntries(new URL(args.request.url).searchParams));
    if (!parsed.success) throw new AppError("validation", parsed.error.issues[0].message);
    const page = await listCampaigns(args.context.db, parsed.data);
    const headers = new Headers({ "Cache-Control": "no-store" });
    if (page.nextCursor !== null) headers.set("X-Next-Cursor", String(page.nextCursor));
    return Response.json(page.campaigns, { headers });
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
