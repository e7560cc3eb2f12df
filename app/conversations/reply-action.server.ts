import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { formAction, withDefaults } from "~/http/form-action.server";
import { clientIp } from "~/lib/request.server";
import { redirectWithToast } from "~/toast/toast.server";
import { toPlainGsm } from "./gsm-replace";
import { replySchema, sendReply } from "./send-reply.server";
import { jobQueue } from "~/jobs/job-queue.server";
import { requirePublicUrl } from "~/messaging/check-public-url.server";

// intent=replace (the no-JS "replace special characters" button) only needs the text; a send is replySchema.
const replyForm = withDefaults(
  {},
  z.discriminatedUnion("intent", [z.object({ intent: z.literal("replace"), message: z.string().default("") }), replySchema.extend({ intent: z.literal("reply") })]),
  (v) => ({ ...v, intent: v.intent === "replace" ? "replace" : "reply" }),
);

/**
 * The shared action of both conversation screens: intent=replace re-renders the form with plain text (no JS),
 * intent=reply sends. `target` (whom to, and the page to go back to) is read after the guard: a route id that
 * cannot exist is its 404.
 */
export async function replyAction(args: ActionFunctionArgs, target: () => { to: { contactId: number } | { phone: string }; back: string }) {
  const { request, context } = args;
  return formAction(args, { schema: replyForm, before: target }, async (input, { user }) => {
    if (input.intent === "replace") return { ok: true as const, replaced: toPlainGsm(input.message) };
    requirePublicUrl(context.cloudflare.env);
    await sendReply({ db: context.db, queue: jobQueue(context.cloudflare.env), now: context.clock() }, target().to, { message: input.message, nonce: input.nonce }, { userId: user.id, ipAddress: clientIp(request) });
    return redirectWithToast(context, target().back, { title: "Reply sent" });
  });
}
