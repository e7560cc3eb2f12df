import { and, eq } from "drizzle-orm";
import { contacts, type Role } from "~/db/schema";
import { loadContactScope, scopeCondition } from "~/contacts/contact-scope.server";
import { z } from "zod";
import { AppError } from "~/lib/app-error";
import { zodId } from "~/lib/ids";
import { createOutboundMessages } from "./create-outbound-messages.server";
import {
  assertKnownVariables,
  assertVariablesFilled,
  logSend,
  messageByKey,
  smsInfo,
  text,
  type SendRequestDeps,
} from "./check-send-request.server";
import { isOneLine, SUBJECT_CONTROL_CHARS } from "~/lib/header-text";
import type { Actor } from "~/lib/actor";

export const individualSchema = z.object({
  contactId: zodId("contactId is required"),
  type: z.enum(["sms", "email"]).default("sms"),
  subject: z.string().trim().max(300).optional().nullable().refine(isOneLine, SUBJECT_CONTROL_CHARS),
  message: text("Please enter message content").pipe(z.string().max(50_000, "Message is too long")),
});

export async function sendIndividual(
  { db, queue, now, hooks }: SendRequestDeps,
  input: z.infer<typeof individualSchema>,
  actor: Actor & { role: Role },
  key: string = crypto.randomUUID(),
) {
  if (input.type === "email" && !input.subject) throw new AppError("validation", "Please enter a subject");
  assertKnownVariables(input.subject, input.message);
  const contact = await db
    .select({ id: contacts.id, phone: contacts.phone, email: contacts.email })
    .from(contacts)
    // Another rep's contact is as unknown as a missing one (decision 048).
    .where(and(eq(contacts.id, input.contactId), scopeCondition(await loadContactScope(db, actor))))
    .get();
  if (!contact) throw new AppError("not_found", "Contact not found");
  if (input.type === "email" && !contact.email) throw new AppError("validation", "This contact has no email address");
  await assertVariablesFilled(
    db,
    actor.userId,
    { channel: input.type, contactIds: [contact.id] },
    input.type === "email" ? input.subject : null,
    input.message,
  );
  const [id] = await createOutboundMessages(
    db,
    queue,
    [
      {
        channel: input.type,
        kind: "individual",
        contactId: contact.id,
        phone: contact.phone,
        email: contact.email,
        subject: input.subject ?? null,
        content: input.message,
        idempotencyKey: `ind:${actor.userId}:${key}`,
        createdBy: actor.userId,
      },
    ],
    now,
    hooks,
  );
  await logSend(db, actor, now, { type: "individual", contactId: contact.id, messageId: id });
  return {
    ...(await messageByKey(db, `ind:${actor.userId}:${key}`))!,
    ...(input.type === "sms" ? smsInfo(input.message) : {}),
  };
}
