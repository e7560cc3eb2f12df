import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { chargedAiCall } from "~/wiring/ai-chain.server";
import { chatInput, chatWithAssistant } from "~/idea-generator/chat-with-assistant.server";
import { requireApiUser } from "~/http/guard.server";
import { methodNotAllowed } from "~/http/api.server";
import { postJson } from "~/http/http.server";

// POST only: 401 without a session, then 405.
export const loader = async (args: LoaderFunctionArgs) => {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
};

/**
 * POST /api/ai/chat (SPEC §7): { message, context, chatHistory } → { response, suggestions, provider }. Stateless:
 * the history is the caller's; the Idea Generator screen keeps its own thread on the server.
 */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  return postJson(args.request, chatInput, (input) =>
    chargedAiCall(args.context, user.id, (ai) => chatWithAssistant({ ...ai, signal: args.request.signal }, input)),
  );
}
