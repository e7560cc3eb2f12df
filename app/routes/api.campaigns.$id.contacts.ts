import { recordActivity } from "~/activity/log-activity.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { addCampaignContacts } from "~/campaigns/add-campaign-contacts.server";
import { addContactsSchema, CAMPAIGN_NOT_FOUND, parseInput } from "~/campaigns/campaign-schema";
import { methodNotAllowed, readJson } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { requireId } from "~/lib/ids";

/** GET on a POST-only endpoint: 401 without a session, then 405. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
}

/** POST /api/campaigns/:id/contacts {contactIds} — add contacts later; they start at step 1. → {added, campaign}. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  if (args.request.method !== "POST") return methodNotAllowed(["POST"]);
  return apiRoute(async () => {
    const id = requireId(args.params.id, CAMPAIGN_NOT_FOUND);
    const { contactIds } = parseInput(addContactsSchema, await readJson(args.request));
    const result = await addCampaignContacts(args.context.db, id, contactIds, args.context.clock());
    await recordActivity(args, user.id, "add_campaign_contacts", { campaignId: id, added: result.added });
    return Response.json(result);
  });
}
