import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { chargedAiCall } from "~/wiring/ai-chain.server";
import { emailInput, generateEmail } from "~/ai/generate-email.server";
import { requireApiUser } from "~/http/guard.server";
import { methodNotAllowed } from "~/http/api.server";
import { postJson } from "~/http/http.server";

// POST only: 401 without a session, then 405.
export const loader = async (args: LoaderFunctionArgs) => {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
};

/** POST /api/ai/generate-email (SPEC §7) → { subject, content, message, provider }. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  return postJson(args.request, emailInput, async (input) => {
    const email = await chargedAiCall(args.context, user.id, (ai) => generateEmail(ai, input));
    return { subject: email.subject, content: email.content, message: email.content, provider: email.provider };
  });
}
