import { and, desc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { messages, senderPacing } from "~/db/schema";
import { FILTERED, utcDayStart } from "./watch-carrier-filtering.server";

export const SENDING_NUMBERS_SHOWN = 200;

export type SendingNumberHealth = {
  sender: string;
  sentToday: number;
  filteredToday: number;
  pausedAt: string | null;
  reason: string | null;
};

/**
 * Each sending number that has texted (its pacing row), paused ones first: today's texts (UTC day, as the daily cap
 * counts them), how many carriers filtered today (messages_filtered_sender_idx: those rows only) and the pause.
 */
export async function listSendingNumberHealth(db: Db, now: Date): Promise<SendingNumberHealth[]> {
  const day = now.toISOString().slice(0, 10);
  const since = utcDayStart(now);
  const p = senderPacing;
  const filtered = db
    .select({ n: sql<number>`count(*)` })
    .from(messages)
    .where(and(FILTERED, eq(messages.fromAddress, p.sender), gte(messages.updatedAt, since)));
  const rows = await db
    .select({
      sender: p.sender,
      day: p.day,
      dayCount: p.dayCount,
      pausedAt: p.marketingPausedAt,
      reason: p.marketingPausedReason,
      filtered: sql<number>`(${filtered})`,
    })
    .from(p)
    .orderBy(desc(sql`${p.marketingPausedAt} IS NOT NULL`), p.sender)
    .limit(SENDING_NUMBERS_SHOWN);
  return rows.map((r) => ({
    sender: r.sender,
    sentToday: r.day === day ? r.dayCount : 0,
    filteredToday: r.filtered,
    pausedAt: r.pausedAt?.toISOString() ?? null,
    reason: r.reason,
  }));
}
