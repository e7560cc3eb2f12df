import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import type { Role } from "~/db/schema";
import { withDefaults } from "~/http/form-schema";
import { clientIp } from "~/lib/request.server";
import { zodId } from "~/lib/ids";
import { AppError } from "~/lib/app-error";
import { redirectWithToast } from "./toast.server";
import { toPlainGsm } from "~/conversations/gsm-replace";
import { replySchema, sendReply } from "~/conversations/send-reply.server";
import { addConversationNote, noteSchema } from "~/conversations/add-conversation-note.server";
import { cancelScheduledReply } from "~/conversations/cancel-scheduled-reply.server";
import { suggestReply } from "~/conversations/suggest-reply.server";
import { localToUtc, INVALID_START_AT } from "~/campaigns/local-time";
import { requirePublicUrl } from "~/messaging/check-public-url.server";
import { PICTURE_SIZE_ERROR, storeOutboundPicture } from "~/messaging/outbound-pictures.server";
import { MAX_PICTURE_FORM_BYTES } from "./read-body.server";
import type { MediaBucket } from "~/messaging/fetch-inbound-media.server";
import { consumeAiQuota } from "~/ai/consume-ai-quota.server";
import type { MentionHook } from "~/conversations/mention-hook";

/** The reply form's body cap: a picture and the fields (decision 076). */
export const REPLY_FORM_LIMIT = { maxBytes: MAX_PICTURE_FORM_BYTES, message: PICTURE_SIZE_ERROR };

const INTENTS = new Set(["replace", "reply", "later", "note", "cancel", "suggest"]);

// The conversation screens' buttons (decision 047): intent=replace (the no-JS "replace special characters") and
// intent=suggest ("Suggest a reply") only re-render the box; reply and later send (now / at `sendAt` in `tz`), note
// writes an internal note, cancel cancels a waiting send. A form without a known intent (Enter in the box) is a reply.
export const replyForm = withDefaults(
  {},
  z.discriminatedUnion("intent", [
    z.object({ intent: z.literal("replace"), message: z.string().default("") }),
    z.object({ intent: z.literal("suggest") }),
    replySchema.extend({ intent: z.literal("reply") }),
    replySchema.extend({
      intent: z.literal("later"),
      sendAt: z.string({ required_error: INVALID_START_AT }).max(40),
      tz: z.string().max(64).default("UTC"),
    }),
    noteSchema.extend({ intent: z.literal("note") }),
    z.object({ intent: z.literal("cancel"), messageId: zodId("Choose a scheduled text") }),
  ]),
  (v) => ({ ...v, intent: typeof v.intent === "string" && INTENTS.has(v.intent) ? v.intent : "reply" }),
);

type ReplyTarget = { to: { contactId: number } | { phone: string }; back: string };

/** What the reply box re-renders with: the replaced text (no JS) or a suggested reply (`suggested`). */
export type ReplyBoxData = { ok: true; replaced: string; suggested?: boolean };

/**
 * The shared action body of both conversation screens (formAction with replyForm): one domain call per intent, then
 * back to the thread (a send, a note, a cancel) or the box re-rendered with text (replace, suggest).
 */
export async function replyOrReplace(
  args: ActionFunctionArgs,
  target: ReplyTarget,
  input: z.output<typeof replyForm>,
  user: { id: number; role: Role },
  /** The composition root's mention hooks (app/wiring/mention-hooks.server.ts), passed by the route. */
  mentionHooks: readonly MentionHook[],
  /** The posted form: its `picture` file, when one was attached (an MMS, decision 076). */
  form?: FormData,
) {
  const { request, context } = args;
  const actor = { userId: user.id, role: user.role, ipAddress: clientIp(request) };
  const now = context.clock();
  const thread = target.back.replace(/#reply$/, "#thread");
  switch (input.intent) {
    case "replace":
      return { ok: true as const, replaced: toPlainGsm(input.message) } satisfies ReplyBoxData;
    case "suggest": {
      // Never sent: the text goes back into the box for the rep to read, edit and send.
      // Charged like every AI call on a user's behalf (chargedAiCall): their quota first, then the budgeted chain.
      await consumeAiQuota(context.db, user.id, now);
      const s = await suggestReply(context.ai(), context.db, target.to);
      return { ok: true as const, replaced: s.text, suggested: true } satisfies ReplyBoxData;
    }
    case "note": {
      const note = await addConversationNote(context.db, target.to, { note: input.note }, actor, now, mentionHooks);
      return redirectWithToast(context, thread, {
        title: "Note added",
        description: note.mentioned.length ? `Mentioned ${note.mentioned.join(", ")}` : undefined,
      });
    }
    case "cancel":
      await cancelScheduledReply(context.db, target.to, input.messageId, actor, now);
      return redirectWithToast(context, thread, { title: "Scheduled text cancelled" });
    case "later":
    case "reply": {
      let sendAt: Date | undefined;
      if (input.intent === "later") {
        sendAt = localToUtc(input.sendAt, input.tz) ?? undefined;
        if (!sendAt) throw new AppError("validation", INVALID_START_AT, { field: "sendAt" });
      }
      requirePublicUrl(context.cloudflare.env);
      const picture = await attachedPicture(context.cloudflare.env.MEDIA, form);
      await sendReply(
        context.domain(),
        target.to,
        { message: input.message, nonce: input.nonce },
        actor,
        sendAt,
        picture,
      );
      if (sendAt) return redirectWithToast(context, thread, { title: "Reply scheduled" });
      return redirectWithToast(context, target.back, { title: picture ? "Picture sent" : "Reply sent" });
    }
  }
}

/** The reply box's picture, checked and stored (decision 076); none when no file was chosen. */
async function attachedPicture(bucket: MediaBucket, form: FormData | undefined) {
  const file = form?.get("picture");
  if (!(file instanceof File) || file.size === 0) return undefined;
  return storeOutboundPicture(bucket, file);
}
