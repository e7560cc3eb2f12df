import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { withDefaults } from "~/http/form-schema";
import { clientIp } from "~/lib/request.server";
import { redirectWithToast } from "./toast.server";
import { toPlainGsm } from "~/conversations/gsm-replace";
import { replySchema, sendReply } from "~/conversations/send-reply.server";
import { requirePublicUrl } from "~/messaging/check-public-url.server";

// intent=replace (the no-JS "replace special characters" button) only needs the text; a send is replySchema.
export const replyForm = withDefaults(
  {},
  z.discriminatedUnion("intent", [
    z.object({ intent: z.literal("replace"), message: z.string().default("") }),
    replySchema.extend({ intent: z.literal("reply") }),
  ]),
  (v) => ({ ...v, intent: v.intent === "replace" ? "replace" : "reply" }),
);

type ReplyTarget = { to: { contactId: number } | { phone: string }; back: string };

/**
 * The shared action body of both conversation screens (formAction with replyForm): intent=replace re-renders the
 * form with plain text (no JS), intent=reply sends and goes back to the thread.
 */
export async function replyOrReplace(
  args: ActionFunctionArgs,
  target: ReplyTarget,
  input: z.output<typeof replyForm>,
  userId: number,
) {
  const { request, context } = args;
  if (input.intent === "replace") return { ok: true as const, replaced: toPlainGsm(input.message) };
  requirePublicUrl(context.cloudflare.env);
  await sendReply(
    context.domain(),
    target.to,
    { message: input.message, nonce: input.nonce },
    { userId, ipAddress: clientIp(request) },
  );
  return redirectWithToast(context, target.back, { title: "Reply sent" });
}
