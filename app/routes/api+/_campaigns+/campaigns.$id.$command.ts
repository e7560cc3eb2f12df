import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { recordActivity } from "~/activity/log-activity.server";
import { requireApiUser } from "~/http/guard.server";
import type { SessionUser } from "~/auth/session.server";
import { addCampaignContacts } from "~/campaigns/add-campaign-contacts.server";
import { addContactsSchema, CAMPAIGN_NOT_FOUND, parseInput } from "~/campaigns/campaign-schema";
import { pauseCampaign } from "~/campaigns/pause-campaign.server";
import { startCampaign } from "~/campaigns/start-campaign.server";
import { requirePublicUrl } from "~/messaging/check-public-url.server";
import { methodNotAllowed, readJson } from "~/http/api.server";
import { AppError } from "~/lib/app-error";
import { viewerOf } from "~/contacts/contact-scope.server";
import { apiRoute } from "~/http/http.server";
import { requireId } from "~/lib/ids";
import { clientIp } from "~/lib/request.server";

type Command = (args: ActionFunctionArgs, user: SessionUser, campaignId: number) => Promise<unknown>;

/** The POST-only commands on one campaign (SPEC §7), each answering 200 with its result; any other is a 404. */
const COMMANDS: Record<string, Command> = {
  /** POST /api/campaigns/:id/start — start a draft or resume a paused campaign → the updated campaign. */
  start: ({ request, context }, user, id) => {
    requirePublicUrl(context.cloudflare.env);
    return startCampaign(
      context.db,
      context.queue,
      id,
      { userId: user.id, ipAddress: clientIp(request) },
      context.clock(),
    );
  },
  /** POST /api/campaigns/:id/pause — running → paused → the updated campaign. */
  pause: ({ request, context }, user, id) =>
    pauseCampaign(context.db, id, { userId: user.id, ipAddress: clientIp(request) }, context.clock()),
  /** POST /api/campaigns/:id/contacts {contactIds} — add contacts later; they start at step 1 → {added, campaign}. */
  contacts: async (args, user, id) => {
    const { contactIds } = parseInput(addContactsSchema, await readJson(args.request));
    const result = await addCampaignContacts(args.context.db, id, contactIds, args.context.clock(), viewerOf(user));
    await recordActivity(args, user.id, "add_campaign_contacts", { campaignId: id, added: result.added });
    return result;
  },
};

function commandOf(params: LoaderFunctionArgs["params"]): Command {
  const name = params.command ?? "";
  if (!Object.hasOwn(COMMANDS, name)) throw new AppError("not_found", "Not found");
  return COMMANDS[name];
}

/** GET on a POST-only endpoint: 401 without a session, 404 for an unknown command, then 405. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiRoute(async () => (commandOf(args.params), methodNotAllowed(["POST"])));
}

export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  return apiRoute(async () => {
    const command = commandOf(args.params);
    if (args.request.method !== "POST") return methodNotAllowed(["POST"]);
    return Response.json(await command(args, user, requireId(args.params.id, CAMPAIGN_NOT_FOUND)));
  });
}
