import { and, eq, isNull, sql } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import type { Db } from "~/db/client.server";
import { messages } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { AppError } from "~/lib/app-error";
import type { NoteTarget } from "./add-conversation-note.server";

export const NOT_SCHEDULED = "That text is no longer waiting: it was sent or cancelled already";

/**
 * Cancels a conversation's waiting send (a "send later" reply, or a reply quiet hours deferred; decision 047): the row
 * goes `pending` → `skipped` with the reason, so the cron never hands it to the consumer. Only this conversation's own
 * sends (kinds individual/reply), only while still pending — all in the UPDATE's WHERE, so a forged id or a row the
 * cron already queued changes nothing (answered 409).
 */
export async function cancelScheduledReply(db: Db, to: NoteTarget, messageId: number, actor: Actor, now: Date) {
  const [row] = await db
    .update(messages)
    .set({ status: "skipped", errorCode: "cancelled", errorMessage: "Cancelled before it was sent", updatedAt: now })
    .where(
      and(
        eq(messages.id, messageId),
        sql`${messages.status} = 'pending'`,
        eq(messages.direction, "outbound"),
        sql`${messages.kind} IN ('individual', 'reply')`,
        "contactId" in to
          ? eq(messages.contactId, to.contactId)
          : and(eq(messages.phone, to.phone), isNull(messages.contactId)),
      ),
    )
    .returning({ id: messages.id });
  if (!row) throw new AppError("conflict", NOT_SCHEDULED);
  await logActivity(db, "cancel_scheduled_message", {
    ...actor,
    now,
    details: { messageId, ...("contactId" in to ? { contactId: to.contactId } : {}) },
  });
  return { id: row.id };
}
