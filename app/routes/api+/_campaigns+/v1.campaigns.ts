import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { listCampaigns } from "~/campaigns/list-campaigns.server";
import { listCampaignsOp } from "~/http/api-v1/operations";
import { served, v1Route } from "~/http/api-v1/v1-route.server";

/** GET /api/v1/campaigns (declared in app/http/api-v1/operations.ts). */
const OPS = [
  served(listCampaignsOp, async ({ query }, { args }) => {
    const page = await listCampaigns(args.context.db, query);
    return { data: page.items, nextCursor: page.nextCursor };
  }),
];

// v1Route guards first (requireApiUser with the operation's scope).
export function loader(args: LoaderFunctionArgs) {
  return v1Route(args as ActionFunctionArgs, OPS);
}
export function action(args: ActionFunctionArgs) {
  return v1Route(args, OPS);
}
