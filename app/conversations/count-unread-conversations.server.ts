import { and, count, desc, eq, gt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { conversationReads, conversations } from "~/db/schema";
import { openCondition, ownerCondition, type QueueView } from "./list-conversations.server";

/**
 * How many of a queue's open conversations, newest activity first, the count looks at. The sidebar is on every page,
 * so the count is a LIMIT on one index seek (never a count over all conversations): an unread conversation older than
 * a queue's newest UNREAD_WINDOW open ones is not counted, and still shows as unread in the list (decision 046).
 */
export const UNREAD_WINDOW = 200;

const v = alias(conversations, "v");
const r = alias(conversationReads, "r");

/** One queue's unread rows among its newest UNREAD_WINDOW open conversations: the statement the plan test checks. */
export function selectUnreadInQueue(db: Db, view: Exclude<QueueView, "all">, userId: number, now: Date) {
  const recent = db
    .select({ id: v.id, lastInboundId: v.lastInboundId })
    .from(v)
    .where(and(ownerCondition(view, userId), openCondition(now)))
    .orderBy(desc(v.lastMessageAt), desc(v.lastMessageId))
    .limit(UNREAD_WINDOW)
    .as("recent");
  return db
    .select({ n: count() })
    .from(recent)
    .leftJoin(r, and(eq(r.userId, userId), eq(r.conversationId, recent.id)))
    .where(gt(recent.lastInboundId, sql`coalesce(${r.readMessageId}, 0)`));
}
