import { z } from "zod";
import { MAX_CONTENT, sendOneSms, text, type SendRequestDeps } from "./check-send-request.server";
import type { Actor } from "~/lib/actor";

export const quickSendSchema = z.object({
  to: text("Phone number (to) is required"),
  message: text("Message required").pipe(
    z.string().max(MAX_CONTENT, `Message must be at most ${MAX_CONTENT} characters`),
  ),
});

/** POST /api/messages/send (SPEC §7): one call per contact, already personalised by the client (#FIRST_NAME# etc.). */
export function sendQuick(
  deps: SendRequestDeps,
  input: z.infer<typeof quickSendSchema>,
  actor: Actor,
  key: string = crypto.randomUUID(),
) {
  return sendOneSms(deps, { to: input.to, message: input.message, kind: "quick", logType: "quick" }, actor, key);
}
