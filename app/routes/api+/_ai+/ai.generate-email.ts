import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { SignedIn } from "~/auth/session.server";
import { chargedAiCall } from "~/wiring/ai-chain.server";
import { emailInput, generateEmail } from "~/ai/generate-email.server";
import { requireApiUser } from "~/http/guard.server";
import { postJson } from "~/http/http.server";

/** POST /api/ai/generate-email (SPEC §7) → { subject, content, message, provider }; other methods 405 (postJson). */
const generate = (args: ActionFunctionArgs, user: SignedIn) =>
  postJson(args.request, emailInput, async (input) => {
    const email = await chargedAiCall(args.context, user.id, (ai) => generateEmail(ai, input));
    return { subject: email.subject, content: email.content, message: email.content, provider: email.provider };
  });

// One handler for both: 401 without a session, then 405 for GET.
export const loader = async (args: LoaderFunctionArgs) => generate(args, await requireApiUser(args));
export const action = async (args: ActionFunctionArgs) => generate(args, await requireApiUser(args));
