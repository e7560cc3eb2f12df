import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { chargedAiCall } from "~/wiring/ai-chain.server";
import { generateStepContent } from "~/ai/generate-step-content.server";
import { AI_QUERY } from "~/ai/generate-step-button";
import { stepContentInput } from "~/ai/step-content-schema";
import { requireUser } from "~/http/guard.server";
import { getCampaignRow } from "~/campaigns/get-campaign.server";
import { listCampaignSteps } from "~/campaigns/list-campaign-steps.server";
import { loadOrgSettings } from "~/messaging/org-settings.server";
import { AppError } from "~/lib/app-error";
import { methodNotAllowed, parseInput } from "~/http/api.server";
import { parseId } from "~/lib/ids";
import { z } from "zod";
import { formAction } from "~/http/form-action.server";

// POST only: 401 without a session, then 405.
export const loader = async (args: LoaderFunctionArgs) => {
  await requireUser(args);
  return methodNotAllowed(["POST"]);
};

/** Only our own paths: never an open redirect. */
function safeReturn(raw: unknown): string {
  const s = typeof raw === "string" ? raw : "";
  return s.startsWith("/") && !s.startsWith("//") && !s.startsWith("/\\") ? s : "/campaigns";
}

function withParams(path: string, params: Record<string, string>): string {
  const url = new URL(path, "http://x");
  for (const v of Object.values(AI_QUERY)) url.searchParams.delete(v);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * The "Generate with AI" form without JS: drafts the step from the campaign's description and earlier steps (the
 * name is internal, decision 025) and the company, then redirects back to the editor with the draft, a step name
 * for an empty name field (or the error) in the query.
 */
// The step editor's "Generate with AI" button (a plain POST form): every field is checked below, in the domain's order.
const generateForm = z.object({
  returnTo: z.unknown(),
  campaignId: z.unknown(),
  stepNumber: z.unknown(),
  messageType: z.unknown(),
  option: z.unknown(),
});
const AI_UNAVAILABLE = "The assistant could not answer just now. Please try again.";

export async function action(args: ActionFunctionArgs) {
  const { db } = args.context;
  return formAction(
    args,
    {
      schema: generateForm,
      resource: true,
      // The draft or the refusal goes back to the editor in its URL: it shows there with or without JS.
      failureRedirect: (f) => redirect(withParams(safeReturn(f.values.returnTo), { [AI_QUERY.error]: f.message })),
    },
    async (form, { user }) => {
      const returnTo = safeReturn(form.returnTo);
      try {
        const campaignId = parseId(form.campaignId);
        if (campaignId === null) throw new AppError("validation", "Choose a campaign first");
        const campaign = await getCampaignRow(db, campaignId);
        const stepNumber = Number(form.stepNumber);
        const steps = await listCampaignSteps(db, campaignId);
        const input = parseInput(stepContentInput, {
          campaignName: campaign.name,
          campaignDescription: campaign.description ?? "",
          stepNumber,
          messageType: form.messageType,
          option: form.option ?? undefined,
          previousSteps: steps
            .filter((s) => s.stepNumber < stepNumber)
            .map((s) => ({
              stepNumber: s.stepNumber,
              messageType: s.messageType,
              content: s.content,
              subject: s.subject,
            })),
        });
        const { company } = await loadOrgSettings(db);
        const draft = await chargedAiCall(args.context, user.id, (ai) => generateStepContent(ai, input, { company }));
        return redirect(
          withParams(returnTo, {
            [AI_QUERY.content]: draft.content,
            [AI_QUERY.name]: draft.name,
            ...(draft.subject ? { [AI_QUERY.subject]: draft.subject } : {}),
            [AI_QUERY.option]: input.option ?? "",
          }),
        );
      } catch (err) {
        if (err instanceof Response || err instanceof AppError) throw err;
        // Anything else is the provider chain failing: logged, and said plainly in the editor.
        console.error("[ai] generate-step failed", err);
        throw new AppError("unavailable", AI_UNAVAILABLE);
      }
    },
  );
}
