import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getCampaign } from "~/campaigns/get-campaign.server";
import { getCampaignOp } from "~/http/api-v1/operations";
import { served, v1Route } from "~/http/api-v1/v1-route.server";

/** GET /api/v1/campaigns/{id} (declared in app/http/api-v1/operations.ts). */
const OPS = [served(getCampaignOp, async ({ params }, { args }) => getCampaign(args.context.db, params.id))];

export const loader = (args: LoaderFunctionArgs) => v1Route(args as ActionFunctionArgs, OPS);
export const action = (args: ActionFunctionArgs) => v1Route(args, OPS);
