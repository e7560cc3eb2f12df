import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { aiDeps } from "~/ai/ai-deps.server";
import { chatInput, chatWithAssistant } from "~/ai/chat.server";
import { consumeAiQuota } from "~/ai/consume-ai-quota.server";
import { requireApiUser } from "~/auth/guard.server";
import { methodNotAllowed } from "~/lib/api.server";
import { postJson } from "~/lib/http.server";

export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/ai/chat (SPEC §7): { message, context, chatHistory } → { response, suggestions, provider }. Stateless:
 * the history is the caller's; the Idea Generator screen keeps its own thread on the server.
 */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  return postJson(args.request, chatInput, async (input) => {
    await consumeAiQuota(args.context.db, user.id, args.context.clock());
    return chatWithAssistant(aiDeps(args.context), input);
  });
}
