import { eq } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/unique-violation";
import { users } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import type { Actor } from "~/lib/actor";
import type { SmsProvider } from "~/messaging/providers/provider";
import { requireOwnSender } from "~/messaging/providers/require-own-sender.server";
import { displayName } from "./display";
import { loggedUserUpdate, mustExist } from "./user-writes.server";

// A rep's own sending number (issue 27 item 3, decision 045). A superuser sets it; SMS to the rep's contacts then go
// from it (app/messaging/consume-send-batch.server.ts, senderFor) and replies to it land in the rep's queue.

export const SENDER_FIELD = "smsSender";

/**
 * Gives the user this sending number (null: none, they send from the default). Unique across users; with Twilio
 * configured a phone number must be one of the account's (IncomingPhoneNumbers), and a Messaging Service SID one of its
 * Messaging Services (GET /v1/Services/:sid).
 */
export async function setSendingNumber(
  db: Db,
  sms: Pick<SmsProvider, "ownsNumber">,
  userId: number,
  sender: string | null,
  actor: Actor,
  now: Date,
) {
  const before = await mustExist(db, userId);
  if (before.smsSender === sender) return;
  if (sender !== null) {
    const holder = await db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(eq(users.smsSender, sender))
      .get();
    if (holder) throw taken(sender, holder);
    await requireOwnSender(sms, sender, SENDER_FIELD);
  }
  try {
    await runBatch(
      db,
      loggedUserUpdate(
        db,
        userId,
        { smsSender: sender },
        { action: "set_sending_number", details: { from: before.smsSender, to: sender } },
        actor,
        now,
      ),
    );
  } catch (err) {
    // Another superuser gave the same number to someone else in between.
    if (isUniqueViolation(err, "users.sms_sender")) throw taken(sender!, null);
    throw err;
  }
}

function taken(sender: string, holder: Parameters<typeof displayName>[0] | null) {
  const whose = holder ? `${displayName(holder)}'s` : "another user's";
  return new AppError("conflict", `${sender} is already ${whose} sending number`, { field: SENDER_FIELD });
}
