import { recordActivity } from "~/activity/log-activity.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import {
  CAMPAIGN_NOT_FOUND,
  checkStep,
  parseInput,
  STEP_NOT_FOUND,
  stepSchema,
  TOASTS,
} from "~/campaigns/campaign-schema";
import { deleteCampaignStep } from "~/campaigns/delete-campaign-step.server";
import { listCampaignSteps, publicStep } from "~/campaigns/list-campaign-steps.server";
import { getStepRow, updateCampaignStep } from "~/campaigns/update-campaign-step.server";
import { methodNotAllowed, readJson } from "~/http/api.server";
import { AppError } from "~/lib/app-error";
import { apiRoute } from "~/http/http.server";
import { requireId } from "~/lib/ids";

// SPEC §7 puts both on one path: GET /api/campaign-steps/{campaignId}; PUT/DELETE /api/campaign-steps/{stepId}.

/** GET /api/campaign-steps/:campaignId — the campaign's steps in order. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiRoute(async () =>
    Response.json(await listCampaignSteps(args.context.db, requireId(args.params.id, CAMPAIGN_NOT_FOUND))),
  );
}

/** PUT /api/campaign-steps/:stepId (the edited step; fields left out keep their value) → 200; DELETE → 204. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  const { request, context } = args;
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed(["GET", "PUT", "DELETE"]);
  return apiRoute(async () => {
    const id = requireId(args.params.id, STEP_NOT_FOUND);
    if (request.method === "DELETE") {
      await deleteCampaignStep(context.db, id, context.clock());
      await recordActivity(args, user.id, "delete_campaign_step", { stepId: id });
      return new Response(null, { status: 204 });
    }
    const body = await readJson(request);
    if (!body || typeof body !== "object" || Array.isArray(body))
      throw new AppError("validation", "Request body must be a step object", { title: TOASTS.updateStep });
    const current = publicStep(await getStepRow(context.db, id));
    // Every field the step schema validates: one the body leaves out keeps its current value.
    const kept = Object.fromEntries(stepSchema.keyof().options.map((key) => [key, current[key]]));
    const merged = { ...kept, ...body };
    const fields = parseInput(stepSchema, merged, TOASTS.updateStep);
    const step = await updateCampaignStep(context.db, id, checkStep(fields, current.isActive), context.clock());
    await recordActivity(args, user.id, "update_campaign_step", { campaignId: step.campaignId, stepId: id });
    return Response.json(step);
  });
}
