import { and, asc, desc, eq, gt, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { contacts, conversationReads, conversations, messages, users } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { queueViews, type QueueState, type QueueView } from "./queue-views";

export { QUEUE_STATES, QUEUE_VIEWS, queueViews, type QueueState, type QueueView } from "./queue-views";
export const ALL_VIEW_FORBIDDEN = "You can see your own and unassigned conversations";

const v = alias(conversations, "v");
const c = alias(contacts, "c");
const o = alias(users, "o");
const r = alias(conversationReads, "r");
const m = alias(messages, "m");

export const CONVERSATIONS_PAGE = 25;

export type ConversationListItem = {
  id: number;
  contactId: number | null;
  contactName: string | null;
  phone: string | null;
  email: string | null;
  lastMessageAt: string;
  lastDirection: "inbound" | "outbound";
  lastPreview: string;
  needsReply: boolean;
  optedOut: boolean;
  ownerUserId: number | null;
  ownerName: string | null;
  state: QueueState;
  /** Set while snoozed: when it shows as open again. */
  snoozedUntil: string | null;
  /** An inbound message the reader has not opened the conversation since. */
  unread: boolean;
};

/**
 * "1732456789000-42": the sort key of the last row shown — (last_message_at, last_message_id) for Open and Closed,
 * (snoozed_until, id) for Snoozed; anything else reads as the first page.
 */
export function parseConversationCursor(v: string | null | undefined): { at: number; id: number } | null {
  const m = /^(\d{1,15})-(\d{1,15})$/.exec(v ?? "");
  return m ? { at: Number(m[1]), id: Number(m[2]) } : null;
}

/** The owner part of a view's WHERE: a seek on the leading column of the queue indexes, or nothing for All. */
export function ownerCondition(view: QueueView, userId: number): SQL | undefined {
  return view === "mine" ? eq(v.ownerUserId, userId) : view === "unassigned" ? isNull(v.ownerUserId) : undefined;
}

/**
 * Open: status open and no snooze still running — a snooze whose time has passed reads as open here, with no task
 * that wakes it. The index walk skips the still-snoozed rows, which the partial snooze indexes keep few.
 */
export function openCondition(now: Date): SQL {
  return and(eq(v.status, "open"), or(isNull(v.snoozedUntil), lte(v.snoozedUntil, now)))!;
}

type ListInput = {
  view: QueueView;
  state: QueueState;
  /** The signed-in user: "Mine" and whose read markers make a row unread. */
  userId: number;
  /** May this user see everyone's conversations? false: only Mine and Unassigned (enforced here). */
  seeAll: boolean;
  now: Date;
  after?: string | null;
  limit?: number;
};

/**
 * One page of a queue view (decision 046). Open and Closed: newest activity first, keyset on (last_message_at,
 * last_message_id) through conversations_queue_idx (Mine, Unassigned) or conversations_status_recent_idx (All);
 * ties (a broadcast writes its messages in one millisecond) go by the newest message. Snoozed: soonest to wake
 * first, keyset on (snoozed_until, id) through the partial snooze indexes. Each page is one index walk whatever the
 * number of messages; the contact, owner and read marker are primary-key seeks per row shown.
 */
export function selectConversationPage(db: Db, input: ListInput & { limit: number }) {
  const { view, state, userId, now } = input;
  const cursor = parseConversationCursor(input.after);
  const snoozed = state === "snoozed";
  const at = cursor && new Date(cursor.at);
  const keyset =
    !cursor || !at
      ? undefined
      : snoozed
        ? or(gt(v.snoozedUntil, at), and(eq(v.snoozedUntil, at), gt(v.id, cursor.id)))
        : or(lt(v.lastMessageAt, at), and(eq(v.lastMessageAt, at), lt(v.lastMessageId, cursor.id)));
  const stateCondition = snoozed
    ? gt(v.snoozedUntil, now)
    : state === "open"
      ? openCondition(now)
      : eq(v.status, "closed");
  return db
    .select({
      id: v.id,
      lastMessageId: v.lastMessageId,
      contactId: v.contactId,
      firstName: c.firstName,
      lastName: c.lastName,
      phone: sql<string | null>`coalesce(${c.phone}, ${v.phone})`,
      email: sql<string | null>`coalesce(${c.email}, ${v.email})`,
      lastMessageAt: v.lastMessageAt,
      lastDirection: v.lastDirection,
      // The last message's text as it is now (a campaign's or broadcast's rendered at send time), by primary key; the
      // stored preview (written with the row) once that message is archived out of D1. Migration 0065 dropped the
      // trigger that copied every rendered text into the conversation: a write per templated message for a column
      // read 50 at a time.
      lastPreview: sql<string>`coalesce(substr(${m.content}, 1, 160), ${v.lastPreview})`,
      needsReply: v.needsReply,
      optedOutAt: c.optedOutAt,
      ownerUserId: v.ownerUserId,
      ownerFirst: o.firstName,
      ownerLast: o.lastName,
      status: v.status,
      snoozedUntil: v.snoozedUntil,
      unread: sql<number>`${v.lastInboundId} > coalesce(${r.readMessageId}, 0)`,
    })
    .from(v)
    .leftJoin(c, eq(c.id, v.contactId))
    .leftJoin(o, eq(o.id, v.ownerUserId))
    .leftJoin(r, and(eq(r.userId, userId), eq(r.conversationId, v.id)))
    .leftJoin(m, eq(m.id, v.lastMessageId))
    .where(and(ownerCondition(view, userId), stateCondition, keyset))
    .orderBy(...(snoozed ? [asc(v.snoozedUntil), asc(v.id)] : [desc(v.lastMessageAt), desc(v.lastMessageId)]))
    .limit(input.limit + 1);
}

/** A page of the queue (see selectConversationPage); the All view is refused unless `seeAll`. */
export async function listConversations(db: Db, input: ListInput) {
  if (!queueViews(input.seeAll).includes(input.view)) throw new AppError("forbidden", ALL_VIEW_FORBIDDEN);
  const limit = Math.min(Math.max(input.limit ?? CONVERSATIONS_PAGE, 1), 100);
  const rows = await selectConversationPage(db, { ...input, limit });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const now = input.now.getTime();
  return {
    conversations: page.map((row): ConversationListItem => {
      const snoozedUntil = row.snoozedUntil && row.snoozedUntil.getTime() > now ? row.snoozedUntil : null;
      return {
        id: row.id,
        contactId: row.contactId,
        contactName: row.firstName != null ? `${row.firstName} ${row.lastName ?? ""}`.trim() : null,
        phone: row.phone,
        email: row.email,
        lastMessageAt: row.lastMessageAt.toISOString(),
        lastDirection: row.lastDirection,
        lastPreview: row.lastPreview,
        needsReply: row.needsReply,
        optedOut: row.optedOutAt != null,
        ownerUserId: row.ownerUserId,
        ownerName: row.ownerFirst != null ? `${row.ownerFirst} ${row.ownerLast ?? ""}`.trim() : null,
        state: row.status === "closed" ? "closed" : snoozedUntil ? "snoozed" : "open",
        snoozedUntil: snoozedUntil?.toISOString() ?? null,
        unread: Boolean(row.unread),
      };
    }),
    nextCursor:
      rows.length > limit && last
        ? input.state === "snoozed"
          ? `${last.snoozedUntil!.getTime()}-${last.id}`
          : `${last.lastMessageAt.getTime()}-${last.lastMessageId}`
        : null,
    views: queueViews(input.seeAll),
  };
}
