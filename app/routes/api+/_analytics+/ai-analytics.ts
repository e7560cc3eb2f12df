import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { methodNotAllowed } from "~/http/api.server";
import { getAiAnalytics } from "~/responders/alerts/get-ai-analytics.server";
import { requireApiUser } from "~/http/guard.server";
import { apiRoute } from "~/http/http.server";

/** GET /api/ai-analytics — real figures from recorded data (null where there is no data yet). */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiRoute(async () =>
    Response.json(await getAiAnalytics(args.context.db, args.context.clock()), {
      headers: { "Cache-Control": "no-store" },
    }),
  );
}

export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args);
  return methodNotAllowed(["GET"]);
}
