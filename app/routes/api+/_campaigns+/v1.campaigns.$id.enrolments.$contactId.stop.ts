import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { recordActivity } from "~/activity/log-activity.server";
import { stopEnrollment } from "~/campaigns/stop-enrollment.server";
import { stopEnrolmentOp } from "~/http/api-v1/operations";
import { served, v1Route } from "~/http/api-v1/v1-route.server";

/** POST /api/v1/campaigns/{id}/enrolments/{contactId}/stop (declared in app/http/api-v1/operations.ts). */
const OPS = [
  served(stopEnrolmentOp, async ({ params }, { args, user }) => {
    const enrolment = await stopEnrollment(
      args.context.db,
      { campaignId: params.id, contactId: params.contactId },
      args.context.clock(),
    );
    await recordActivity(args, user.id, "stop_campaign_enrollment", {
      campaignId: params.id,
      contactId: params.contactId,
    });
    return enrolment;
  }),
];

// v1Route guards first (requireApiUser with the operation's scope).
export function loader(args: LoaderFunctionArgs) {
  return v1Route(args as ActionFunctionArgs, OPS);
}
export function action(args: ActionFunctionArgs) {
  return v1Route(args, OPS);
}
