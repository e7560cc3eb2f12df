import { and, eq, isNull, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { conversations } from "~/db/schema";
import { AppError } from "~/lib/app-error";

export const CONVERSATION_NOT_FOUND = "Conversation not found";
export const SNOOZE_IN_PAST = "Choose a time in the future";
/** A snooze is for days or weeks, not forever (that is Close). */
export const MAX_SNOOZE_MS = 366 * 24 * 3600_000;

export type ConversationStateChange = { intent: "close" } | { intent: "reopen" } | { intent: "snooze"; until: Date };

/**
 * Close, snooze until a time, or reopen one conversation from the queue (decision 046). A standard user (seeAll
 * false) may change only their own and unassigned conversations: the rule is in the UPDATE's WHERE, so a forged form
 * changes nothing and reads as not found. A later reply reopens a closed or snoozed conversation (a trigger, 0058).
 */
export async function setConversationState(
  db: Db,
  id: number,
  change: ConversationStateChange,
  actor: { userId: number; seeAll: boolean },
  now: Date,
) {
  if (change.intent === "snooze") {
    const wait = change.until.getTime() - now.getTime();
    if (!(wait > 0)) throw new AppError("validation", SNOOZE_IN_PAST, { field: "until" });
    if (wait > MAX_SNOOZE_MS) throw new AppError("validation", "Snooze for at most a year", { field: "until" });
  }
  const set =
    change.intent === "close"
      ? { status: "closed" as const, snoozedUntil: null }
      : change.intent === "snooze"
        ? { status: "open" as const, snoozedUntil: change.until }
        : { status: "open" as const, snoozedUntil: null };
  const row = await db
    .update(conversations)
    .set(set)
    .where(
      and(
        eq(conversations.id, id),
        actor.seeAll ? undefined : or(eq(conversations.ownerUserId, actor.userId), isNull(conversations.ownerUserId)),
      ),
    )
    .returning({ id: conversations.id })
    .get();
  if (!row) throw new AppError("not_found", CONVERSATION_NOT_FOUND);
  return { id: row.id, ...set };
}
