import { eq } from "drizzle-orm";
import { contacts } from "~/db/schema";
import { z } from "zod";
import { createOutboundMessages } from "./create-outbound-messages.server";
import { checkTestRecipient } from "./check-test-recipient.server";
import {
  assertKnownVariables,
  assertVariablesFilled,
  logSend,
  MAX_CONTENT,
  messageByKey,
  sendablePhone,
  sendOneSms,
  text,
  type SendRequestDeps,
} from "./check-send-request.server";
import { isOneLine, SUBJECT_CONTROL_CHARS } from "~/lib/header-text";
import type { Actor } from "~/lib/actor";

export const manualSmsSchema = z.object(
  {
    phone: text("Please enter phone number and message"),
    message: text("Please enter phone number and message").pipe(
      z.string().max(MAX_CONTENT, `Message must be at most ${MAX_CONTENT} characters`),
    ),
  },
  { invalid_type_error: "Invalid data format for manual test" },
);

/**
 * Manual one-to-one test (marked as a test, never exempt from opt-outs): only to a team member's number, inside the
 * number's calling hours, within the user's hourly test allowance (check-test-recipient, issue 23).
 */
export async function sendManualSmsTest(
  deps: SendRequestDeps,
  input: z.infer<typeof manualSmsSchema>,
  actor: Actor,
  key: string = crypto.randomUUID(),
) {
  // A client's retry with the same key returns the first send without counting again.
  if (!(await messageByKey(deps.db, `test:${actor.userId}:${key}`)))
    await checkTestRecipient(deps.db, actor, { phone: sendablePhone(input.phone) }, deps.now);
  return sendOneSms(deps, { to: input.phone, message: input.message, kind: "test", logType: "manual-sms" }, actor, key);
}

export const manualEmailSchema = z.object(
  {
    email: text("Please enter email, subject, and content").pipe(
      z.string().max(254, "Please enter a valid email address").email("Please enter a valid email address"),
    ),
    subject: text("Please enter email, subject, and content").pipe(
      z.string().max(300, "Subject must be at most 300 characters").refine(isOneLine, SUBJECT_CONTROL_CHARS),
    ),
    content: text("Please enter email, subject, and content").pipe(z.string().max(50_000, "Content is too long")),
  },
  { invalid_type_error: "Invalid data format for manual test" },
);

export async function sendManualEmailTest(
  { db, queue, now }: SendRequestDeps,
  input: z.infer<typeof manualEmailSchema>,
  actor: Actor,
  key: string = crypto.randomUUID(),
) {
  assertKnownVariables(input.subject, input.content);
  const email = input.email.toLowerCase();
  if (!(await messageByKey(db, `test:${actor.userId}:${key}`))) await checkTestRecipient(db, actor, { email }, now);
  const contact = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.email, email)).limit(1).get();
  await assertVariablesFilled(
    db,
    actor.userId,
    contact ? { channel: "email", contactIds: [contact.id] } : { channel: "email", bare: { email } },
    input.subject,
    input.content,
  );
  const [id] = await createOutboundMessages(
    db,
    queue,
    [
      {
        channel: "email",
        kind: "test",
        email,
        contactId: contact?.id ?? null,
        subject: input.subject,
        content: input.content,
        idempotencyKey: `test:${actor.userId}:${key}`,
        createdBy: actor.userId,
      },
    ],
    now,
  );
  await logSend(db, actor, now, { type: "manual-email", to: email, messageId: id });
  return (await messageByKey(db, `test:${actor.userId}:${key}`)) ?? null;
}
