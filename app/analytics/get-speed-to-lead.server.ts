import { and, count, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contactResponseTimes as t } from "~/db/schema";

// Speed to lead (issue 26 item 3, decision 037): the median time from a lead to its first text, and from a contact's
// first reply to the rep's answer, over a period. Read from contact_response_times (one row per lead or replying
// contact, kept by the messages triggers of migration 0054) through its partial indexes — never the messages table.

export type Median = { medianMs: number | null; count: number };
export type SpeedToLead = { leadToFirstText: Median; replyToAnswer: Median };
export type SpeedToLeadQuery = { from: Date; to: Date; userId?: number | null };

/** The last `days` days up to `now` (the screens' 7 / 30 / 90). */
export const periodOf = (now: Date, days: number) => ({ from: new Date(now.getTime() - days * 86_400_000), to: now });

/** The two measures: the start column (the period is on it), the end column, and the sender of the end. */
const MEASURES = {
  // The rows with an end are exactly the partial indexes' rows (their WHERE repeated literally).
  leadToFirstText: { start: t.leadAt, end: t.firstTextAt, by: t.firstTextBy },
  replyToAnswer: { start: t.firstReplyAt, end: t.firstAnswerAt, by: t.firstAnswerBy },
} as const;
type Measure = keyof typeof MEASURES;

/** The rows a measure reads: ended, started in [from, to), and (per rep) answered by that user. Exported for the plan test. */
export function measureWhere(m: Measure, q: SpeedToLeadQuery) {
  const { start, end, by } = MEASURES[m];
  return and(
    isNotNull(end),
    gte(start, q.from),
    lt(start, q.to),
    q.userId !== undefined && q.userId !== null ? eq(by, q.userId) : undefined,
  );
}

/** The gaps of a measure, shortest first (the median is read from the middle of this list). */
export function gapsQuery(db: Db, m: Measure, q: SpeedToLeadQuery) {
  const { start, end } = MEASURES[m];
  const gap = sql<number>`${end} - ${start}`;
  return db.select({ gap }).from(t).where(measureWhere(m, q)).orderBy(gap);
}

export function countQuery(db: Db, m: Measure, q: SpeedToLeadQuery) {
  return db.select({ n: count() }).from(t).where(measureWhere(m, q));
}

/** The middle gap (odd count) or the mean of the middle two (even), read with LIMIT/OFFSET from the sorted gaps. */
function middleQuery(db: Db, m: Measure, q: SpeedToLeadQuery, n: number) {
  return gapsQuery(db, m, q)
    .limit(2 - (n % 2))
    .offset(Math.floor((n - 1) / 2));
}

const medianOf = (n: number, middle: { gap: number }[]): Median =>
  n === 0 || middle.length === 0
    ? { medianMs: null, count: 0 }
    : { medianMs: Math.round(middle.reduce((s, r) => s + Number(r.gap), 0) / middle.length), count: n };

/**
 * Both medians for the period, organisation-wide or for one rep (the sender of the first text / the answer). Two D1
 * batches: both counts, then both middles (decision 062: a round trip costs the Worker more than these reads).
 */
export async function getSpeedToLead(db: Db, q: SpeedToLeadQuery): Promise<SpeedToLead> {
  const [leads, replies] = await db.batch([countQuery(db, "leadToFirstText", q), countQuery(db, "replyToAnswer", q)]);
  const nLeads = leads[0]?.n ?? 0;
  const nReplies = replies[0]?.n ?? 0;
  const [leadMiddle, replyMiddle] = await db.batch([
    middleQuery(db, "leadToFirstText", q, Math.max(nLeads, 1)),
    middleQuery(db, "replyToAnswer", q, Math.max(nReplies, 1)),
  ]);
  return { leadToFirstText: medianOf(nLeads, leadMiddle), replyToAnswer: medianOf(nReplies, replyMiddle) };
}
