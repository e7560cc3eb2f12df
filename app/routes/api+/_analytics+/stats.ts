import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { getStats } from "~/campaigns/get-stats.server";
import { methodNotAllowed } from "~/http/api.server";

/** GET /api/stats — messagesSent, delivered, responses, contacts from maintained counters. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return Response.json(await getStats(args.context.db), { headers: { "Cache-Control": "no-store" } });
}

export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args);
  return methodNotAllowed(["GET"]);
}
