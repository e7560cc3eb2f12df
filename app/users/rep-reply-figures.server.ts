import { and, countDistinct, gte, lte, sum } from "drizzle-orm";
import { inJson } from "~/db/bulk-update.server";
import type { Db } from "~/db/client.server";
import { repReplyDays as r } from "~/db/schema";

// Per-rep figures (issue 27 item 8, decision 050): conversations handled (distinct contacts a rep texted) and replies
// sent over a period, from rep_reply_days (a row per rep, UTC day and contact, kept by the trigger
// messages_rep_replies_au) — one primary-key range per rep, never the messages table.

export type RepReplyFigures = { conversationsHandled: number; repliesSent: number };
export type RepPeriod = { from: Date; to: Date };

/** The table's day key: UTC days, so a period counts the whole days from `from`'s day to `to`'s day. */
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** The read, for a set of reps (exported for the plan test): grouped by rep, each a (user_id, day) range of the key. */
export function repReplyFiguresQuery(db: Db, userIds: readonly number[], period: RepPeriod) {
  return db
    .select({
      userId: r.userId,
      conversationsHandled: countDistinct(r.contactId),
      repliesSent: sum(r.replies).mapWith(Number),
    })
    .from(r)
    .where(and(inJson(r.userId, [...userIds]), gte(r.day, dayOf(period.from)), lte(r.day, dayOf(period.to))))
    .groupBy(r.userId);
}

/** Each rep's figures for the period (0 for a rep with no texts in it). */
export async function repReplyFigures(
  db: Db,
  userIds: readonly number[],
  period: RepPeriod,
): Promise<Map<number, RepReplyFigures>> {
  const out = new Map<number, RepReplyFigures>(userIds.map((id) => [id, { conversationsHandled: 0, repliesSent: 0 }]));
  if (!userIds.length) return out;
  for (const row of await repReplyFiguresQuery(db, userIds, period))
    out.set(row.userId, { conversationsHandled: row.conversationsHandled, repliesSent: row.repliesSent ?? 0 });
  return out;
}
