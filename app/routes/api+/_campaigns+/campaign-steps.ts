import { recordActivity } from "~/activity/log-activity.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { addCampaignStep } from "~/campaigns/add-campaign-step.server";
import { addStepSchema, checkStep, parseInput, TOASTS } from "~/campaigns/campaign-schema";
import { methodNotAllowed, readJson } from "~/http/api.server";
import { apiRoute } from "~/http/http.server";

// POST only: 401 without a session, then 405.
export const loader = async (args: LoaderFunctionArgs) => {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
};

/**
 * POST /api/campaign-steps {campaignId, name, messageType, subject, content, delayDays, delayHours, isActive, window…}
 * → 201 step. The number is always highest + 1 (a client's `stepNumber` is ignored, so two editors never collide).
 */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  if (args.request.method !== "POST") return methodNotAllowed(["POST"]);
  return apiRoute(async () => {
    const { campaignId, ...fields } = parseInput(addStepSchema, await readJson(args.request), TOASTS.addStep);
    const step = await addCampaignStep(args.context.db, campaignId, checkStep(fields), args.context.clock());
    await recordActivity(args, user.id, "create_campaign_step", { campaignId, stepId: step.id });
    return Response.json(step, { status: 201 });
  });
}
