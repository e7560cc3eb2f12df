import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { chargedAiCall } from "~/wiring/ai-chain.server";
import { generateStepContent } from "~/ai/generate-step-content.server";
import { stepContentInput } from "~/ai/step-content-schema";
import { requireApiUser } from "~/http/guard.server";
import { methodNotAllowed } from "~/http/api.server";
import { loadOrgSettings } from "~/messaging/org-settings.server";
import { postJson } from "~/http/http.server";

// POST only: 401 without a session, then 405.
export const loader = async (args: LoaderFunctionArgs) => {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
};

/** POST /api/ai/generate-step-content (SPEC §7) → { content, response, subject, name, stepPosition, provider }. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  return postJson(args.request, stepContentInput, async (input) => {
    const { company } = await loadOrgSettings(args.context.db);
    const draft = await chargedAiCall(args.context, user.id, (ai) => generateStepContent(ai, input, { company }));
    return {
      content: draft.content,
      response: draft.content,
      subject: draft.subject,
      name: draft.name,
      stepPosition: draft.stepPosition,
      provider: draft.provider,
    };
  });
}
