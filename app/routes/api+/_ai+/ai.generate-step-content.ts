import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { SignedIn } from "~/auth/session.server";
import { chargedAiCall } from "~/wiring/ai-chain.server";
import { generateStepContent } from "~/ai/generate-step-content.server";
import { stepContentInput } from "~/ai/step-content-schema";
import { requireApiUser } from "~/http/guard.server";
import { loadOrgSettings } from "~/messaging/org-settings.server";
import { postJson } from "~/http/http.server";

/**
 * POST /api/ai/generate-step-content (SPEC §7) → { content, response, subject, name, stepPosition, provider };
 * other methods 405 (postJson).
 */
const generate = (args: ActionFunctionArgs, user: SignedIn) =>
  postJson(args.request, stepContentInput, async (input) => {
    const { company } = await loadOrgSettings(args.context.db);
    const draft = await chargedAiCall(args.context, user.id, (ai) => generateStepContent(ai, input, { company }));
    const { content, subject, name, stepPosition, provider } = draft;
    return { content, response: content, subject, name, stepPosition, provider };
  });

// One handler for both: 401 without a session, then 405 for GET.
export const loader = async (args: LoaderFunctionArgs) => generate(args, await requireApiUser(args));
export const action = async (args: ActionFunctionArgs) => generate(args, await requireApiUser(args));
