import { z } from "zod";
import { createOutboundMessages } from "./create-outbound-messages.server";
import {
  assertKnownVariables,
  assertVariablesFilled,
  contactIdByPhone,
  logSend,
  MAX_CONTENT,
  messageByKey,
  sendablePhone,
  smsInfo,
  text,
  type Actor,
  type SendRequestDeps,
} from "./check-send-request.server";

export const quickSendSchema = z.object({
  to: text("Phone number (to) is required"),
  message: text("Message required").pipe(z.string().max(MAX_CONTENT, `Message must be at most ${MAX_CONTENT} characters`)),
});

/** Quick upload & send: one call per contact, already personalised by the client (#FIRST_NAME# etc.). */
export async function sendQuick({ db, queue, now }: SendRequestDeps, input: z.infer<typeof quickSendSchema>, actor: Actor, key: string = crypto.randomUUID()) {
  assertKnownVariables(input.message);
  const phone = sendablePhone(input.to);
  const contactId = await contactIdByPhone(db, phone);
  await assertVariablesFilled(db, actor.userId, contactId ? { channel: "sms", contactIds: [contactId] } : { channel: "sms", bare: { phone } }, input.message);
  const [id] = await createOutboundMessages(
    db,
    queue,
    [{ channel: "sms", kind: "quick", phone, contactId, content: input.message, idempotencyKey: `quick:${actor.userId}:${key}`, createdBy: actor.userId }],
    now,
  );
  await logSend(db, actor, now, { type: "quick", to: phone, messageId: id });
  return { ...(await messageByKey(db, `quick:${actor.userId}:${key}`)), ...smsInfo(input.message) };
}
