import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { aiDeps } from "~/ai/ai-deps.server";
import { consumeAiQuota } from "~/ai/consume-ai-quota.server";
import { emailInput, generateEmail } from "~/ai/generate-email.server";
import { requireApiUser } from "~/auth/guard.server";
import { methodNotAllowed } from "~/lib/api.server";
import { postJson } from "~/lib/http.server";

export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
}

/** POST /api/ai/generate-email (SPEC §7) → { subject, content, message, provider }. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  return postJson(args.request, emailInput, async (input) => {
    await consumeAiQuota(args.context.db, user.id, args.context.clock());
    const email = await generateEmail(aiDeps(args.context), input);
    return { subject: email.subject, content: email.content, message: email.content, provider: email.provider };
  });
}
