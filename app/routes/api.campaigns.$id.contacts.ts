import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { postOnly } from "~/messaging/api-send.server";
import { addCampaignContacts } from "~/campaigns/add-campaign-contacts.server";
import { addContactsSchema, CAMPAIGN_NOT_FOUND, parseInput } from "~/campaigns/campaign-schema";
import { methodNotAllowed, readJson } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { requireId } from "~/lib/ids";

export const loader = postOnly;

/** POST /api/campaigns/:id/contacts {contactIds} — add contacts later; they start at step 1. → {added, campaign}. */
export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args);
  if (args.request.method !== "POST") return methodNotAllowed(["POST"]);
  return apiRoute(async () => {
    const id = requireId(args.params.id, CAMPAIGN_NOT_FOUND);
    const { contactIds } = parseInput(addContactsSchema, await readJson(args.request));
    return Response.json(await addCampaignContacts(args.context.db, id, contactIds, args.context.clock()));
  });
}
