import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { recordActivity } from "~/activity/log-activity.server";
import { addCampaignContacts } from "~/campaigns/add-campaign-contacts.server";
import { listCampaignEnrollments } from "~/campaigns/list-campaign-enrollments.server";
import { enrolContactsOp, listEnrolmentsOp } from "~/http/api-v1/operations";
import { viewerOf } from "~/contacts/contact-scope.server";
import { served, v1Route } from "~/http/api-v1/v1-route.server";

/**
 * GET /api/v1/campaigns/{id}/enrolments: the campaign's enrolments (keyset-paged on the contact id);
 * POST: what POST /api/campaigns/:id/contacts does.
 */
const OPS = [
  served(listEnrolmentsOp, async ({ params, query }, { args }) => {
    const page = await listCampaignEnrollments(args.context.db, params.id, query);
    return { data: page.enrollments, nextCursor: page.nextCursor };
  }),
  served(enrolContactsOp, async ({ params, body }, { args, user }) => {
    const result = await addCampaignContacts(
      args.context.db,
      params.id,
      body.contactIds,
      args.context.clock(),
      viewerOf(user),
    );
    await recordActivity(args, user.id, "add_campaign_contacts", { campaignId: params.id, added: result.added });
    return result;
  }),
];

// v1Route guards first (requireApiUser with the operation's scope).
export function loader(args: LoaderFunctionArgs) {
  return v1Route(args as ActionFunctionArgs, OPS);
}
export function action(args: ActionFunctionArgs) {
  return v1Route(args, OPS);
}
