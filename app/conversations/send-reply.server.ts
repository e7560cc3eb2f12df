import { and, eq } from "drizzle-orm";
import { contacts, conversations, type PictureAttachment } from "~/db/schema";
import { phoneOptedOut } from "./get-conversation.server";
import { z } from "zod";
import { AppError } from "~/lib/app-error";
import {
  assertVariablesFilled,
  logSend,
  messageByKey,
  sendablePhone,
  type SendRequestDeps,
} from "~/messaging/check-send-request.server";
import { createOutboundMessages } from "~/messaging/create-outbound-messages.server";
import { OPTED_OUT_REASON } from "~/messaging/compliance.server";
import type { Actor } from "~/lib/actor";
import type { Role } from "~/db/schema";
import { inScope, loadContactScope, scopeCondition } from "~/contacts/contact-scope.server";

export const REPLY_MAX = 1600;
export const replySchema = z.object({
  message: z
    .string({ required_error: "Please enter message content" })
    .trim()
    .min(1, "Please enter message content")
    .max(REPLY_MAX, `Message must be at most ${REPLY_MAX} characters`),
  // A nonce rendered into the form: a double submit (or a resubmitted page) sends once.
  nonce: z
    .string({ required_error: "Missing form nonce; reload the page" })
    .regex(/^[A-Za-z0-9-]{8,64}$/, "Missing form nonce; reload the page"),
});

/** "Send later" (decision 047): at least a minute ahead (else it is a send now), at most 30 days. */
export const LATER_MIN_MS = 60 * 1000;
export const LATER_MAX_MS = 30 * 24 * 60 * 60 * 1000;

/** A conversation that has a reply waiting this recently makes our answer conversational (see decision 007). */
export const CONVERSATIONAL_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * A reply typed in a conversation: one SMS through the send pipeline, refused with the reason when the
 * recipient opted out. Kind `reply` (not marketing: sent at once, exempt from quiet hours) when the contact's
 * latest message is inbound and arrived within 24 h — they just wrote and are waiting; otherwise `individual`,
 * which quiet hours defer like any other outreach.
 * `sendAt` ("send later", decision 047): the same row through the same pipeline, written `pending` with that
 * `scheduled_at`, always kind `individual` — when the cron hands it to the consumer, it is checked like any
 * outreach then (opt-out, quiet hours, caps, pacing), not as a reply to a text that will be hours old by then.
 */
export async function sendReply(
  deps: SendRequestDeps,
  to: { contactId: number } | { phone: string },
  input: z.infer<typeof replySchema>,
  actor: Actor & { role: Role },
  sendAt?: Date,
  /** A picture sent with the text as MMS (decision 076), stored already; the pipeline files it with the message. */
  picture?: PictureAttachment,
) {
  const { db, queue, now, hooks } = deps;
  if (sendAt) assertLater(sendAt, now);
  let contactId: number | null = null;
  let phone: string;
  // A contact outside the sender's scope is not found, whichever way it is addressed (decision 048).
  const scope = await loadContactScope(db, actor);
  if ("contactId" in to) {
    const c = await db
      .select({
        id: contacts.id,
        phone: contacts.phone,
        optedOutAt: contacts.optedOutAt,
        sendable: contacts.sendable,
        unsendableReason: contacts.unsendableReason,
      })
      .from(contacts)
      .where(and(eq(contacts.id, to.contactId), scopeCondition(scope)))
      .get();
    if (!c) throw new AppError("not_found", "Contact not found");
    if (c.optedOutAt != null)
      throw new AppError(
        "conflict",
        `${OPTED_OUT_REASON}: this contact texted STOP and cannot be messaged until they text START`,
        { field: "message" },
      );
    if (!c.sendable)
      throw new AppError("validation", c.unsendableReason ?? "This contact's number cannot receive texts", {
        field: "message",
      });
    contactId = c.id;
    phone = c.phone;
  } else {
    phone = sendablePhone(to.phone);
    const owner = await db
      .select({ ownerUserId: contacts.ownerUserId })
      .from(contacts)
      .where(eq(contacts.phone, phone))
      .get();
    if (owner && !inScope(scope, owner)) throw new AppError("not_found", "Conversation not found");
  }
  if (await phoneOptedOut(db, phone)) {
    throw new AppError(
      "conflict",
      `${OPTED_OUT_REASON}: this number texted STOP and cannot be messaged until it texts START`,
      { field: "message" },
    );
  }
  await assertVariablesFilled(
    db,
    actor.userId,
    contactId ? { channel: "sms", contactIds: [contactId] } : { channel: "sms", bare: { phone } },
    input.message,
  );
  const key = contactId ? `c:${contactId}` : `p:${phone}`;
  const conv = await db
    .select({ lastDirection: conversations.lastDirection, lastMessageAt: conversations.lastMessageAt })
    .from(conversations)
    .where(eq(conversations.key, key))
    .get();
  const conversational =
    !sendAt &&
    conv?.lastDirection === "inbound" &&
    now.getTime() - conv.lastMessageAt.getTime() <= CONVERSATIONAL_WINDOW_MS;
  const idempotencyKey = `${sendAt ? "later" : "reply"}:${actor.userId}:${input.nonce}`;
  await createOutboundMessages(
    db,
    queue,
    [
      {
        channel: "sms",
        kind: conversational ? "reply" : "individual",
        contactId,
        phone,
        content: input.message,
        idempotencyKey,
        scheduledAt: sendAt ?? null,
        createdBy: actor.userId,
        attachments: picture ? [picture] : null,
      },
    ],
    now,
    hooks,
  );
  const message = await messageByKey(db, idempotencyKey);
  await logSend(db, actor, now, {
    type: sendAt ? "reply_later" : "reply",
    contactId,
    to: phone,
    messageId: message?.id ?? null,
    ...(sendAt ? { sendAt: sendAt.toISOString() } : {}),
  });
  return { ...message, conversational };
}

/** A "send later" time must be ahead (a minute at least) and within 30 days. */
function assertLater(sendAt: Date, now: Date) {
  const ahead = sendAt.getTime() - now.getTime();
  if (!(ahead >= LATER_MIN_MS))
    throw new AppError("validation", "Choose a time at least a minute from now", { field: "sendAt" });
  if (ahead > LATER_MAX_MS) throw new AppError("validation", "Choose a time within 30 days", { field: "sendAt" });
}
