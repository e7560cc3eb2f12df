import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { CAMPAIGN_NOT_FOUND } from "~/campaigns/campaign-schema";
import { campaignStartCsv } from "~/campaigns/check-campaign-start.server";
import { viewerOf } from "~/contacts/contact-scope.server";
import { requireUser } from "~/http/guard.server";
import { routeId, throwAsResponse } from "~/http/http.server";
import { messagingConfig } from "~/messaging/messaging-config.server";

/**
 * GET /campaigns/:id/check.csv — a draft campaign's pre-start check one line per recipient (issue 29 item 4): when
 * its first step would reach them in their local time, or the rule that holds it, or why it is skipped.
 */
export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  const id = routeId(args.params.id, CAMPAIGN_NOT_FOUND);
  const now = args.context.clock();
  const { csv } = await campaignStartCsv(args.context.db, {
    campaignId: id,
    now,
    publicBaseUrl: messagingConfig(args.context.cloudflare.env).publicBaseUrl,
    viewer: viewerOf(me),
    variables: args.context.domain().hooks.variables,
  }).catch(throwAsResponse);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="prestart-check-campaign-${id}-${now.toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
