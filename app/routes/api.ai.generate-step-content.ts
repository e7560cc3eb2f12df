import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { aiDeps } from "~/ai/ai-deps.server";
import { consumeAiQuota } from "~/ai/consume-ai-quota.server";
import { generateStepContent } from "~/ai/generate-step-content.server";
import { stepContentInput } from "~/ai/step-content-schema";
import { requireApiUser } from "~/auth/guard.server";
import { methodNotAllowed } from "~/lib/api.server";
import { postJson } from "~/lib/http.server";

export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
}

/** POST /api/ai/generate-step-content (SPEC §7) → { content, response, subject, stepPosition, provider }. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  return postJson(args.request, stepContentInput, async (input) => {
    await consumeAiQuota(args.context.db, user.id, args.context.clock());
    const draft = await generateStepContent(aiDeps(args.context), input);
    return { content: draft.content, response: draft.content, subject: draft.subject, stepPosition: draft.stepPosition, provider: draft.provider };
  });
}
