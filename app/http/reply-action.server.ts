import { data } from "@remix-run/cloudflare";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { AppError } from "~/lib/app-error";
import { clientIp } from "~/lib/request.server";
import { redirectWithToast } from "./toast.server";
import { toPlainGsm } from "~/conversations/gsm-replace";
import { replySchema, sendReply } from "~/conversations/send-reply.server";
import { requirePublicUrl } from "~/messaging/check-public-url.server";

/** The shared action of both conversation screens: intent=replace re-renders the form with plain text (no JS), intent=reply sends. */
export async function replyAction(request: Request, context: AppLoadContext, userId: number, to: { contactId: number } | { phone: string }, back: string) {
  const form = await request.formData();
  const text = String(form.get("message") ?? "");
  if (form.get("intent") === "replace") return { ok: true as const, replaced: toPlainGsm(text) };
  const parsed = replySchema.safeParse({ message: text, nonce: form.get("nonce") ?? undefined });
  if (!parsed.success) return data({ ok: false as const, message: parsed.error.issues[0].message, text }, { status: 400 });
  try {
    requirePublicUrl(context.cloudflare.env);
    await sendReply(context.domain(), to, parsed.data, { userId, ipAddress: clientIp(request) });
  } catch (err) {
    if (err instanceof AppError) return data({ ok: false as const, message: err.message, text }, { status: err.status });
    throw err;
  }
  return redirectWithToast(context, back, { title: "Reply sent" });
}

