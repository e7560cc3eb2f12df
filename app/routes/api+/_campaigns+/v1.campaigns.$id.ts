import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getCampaign } from "~/campaigns/get-campaign.server";
import { getCampaignOp } from "~/http/api-v1/operations";
import { served, v1Route } from "~/http/api-v1/v1-route.server";

/** GET /api/v1/campaigns/{id} (declared in app/http/api-v1/operations.ts). */
const OPS = [served(getCampaignOp, async ({ params }, { args }) => getCampaign(args.context.db, params.id))];

// v1Route guards first (requireApiUser with the operation's scope).
export function loader(args: LoaderFunctionArgs) {
  return v1Route(args as ActionFunctionArgs, OPS);
}
export function action(args: ActionFunctionArgs) {
  return v1Route(args, OPS);
}
