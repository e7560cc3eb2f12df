import { and, avg, count, desc, eq, gte, isNotNull, sql, sum } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { aiClassifications, alerts, autoResponders, keywordBanks, messages, responderTriggers } from "~/db/schema";
import { matchKeywords } from "~/responders/match";

/** Recent windows the figures are read from: bounded reads, newest first (each through an index). */
const RECENT = 500;

export type AiAnalytics = {
  /** ms from the contact's text to the auto-reply leaving (sent); null = no data yet. */
  averageAutoResponseMs: number | null;
  averageAnalysisMs: number | null;
  averageConfidence: number | null;
  /** % of the classifications people marked that were right; null = none marked. */
  accuracy: number | null;
  markedCount: number;
  classifications: number;
  trendingKeywords: Array<{ keyword: string; count: number }>;
  /** Per responder: replies that went out (sent/delivered) over replies created, in %. */
  successRates: Array<{ responderId: number; name: string; sent: number; created: number; rate: number | null }>;
  activeResponders: number;
  repliesToday: number;
  escalations: number;
};

export async function getAiAnalytics(db: Db, now: Date): Promise<AiAnalytics> {
  const dayStart = new Date(now);
  dayStart.setUTCHours(0, 0, 0, 0);
  // The newest responder triggers, and the primary auto-reply each one created (found by its idempotency key).
  const recentTriggers = db.select().from(responderTriggers).orderBy(desc(responderTriggers.id)).limit(RECENT).as("t");
  const t = recentTriggers;
  const primaryReply = eq(
    messages.idempotencyKey,
    sql`'auto:' || ${t.inboundMessageId} || ':' || ${t.responderId} || ':primary'`,
  );
  const recentClassifications = db
    .select({ analysisMs: aiClassifications.analysisMs, confidence: aiClassifications.confidence })
    .from(aiClassifications)
    .orderBy(desc(aiClassifications.createdAt))
    .limit(RECENT)
    .as("c");
  const recentMarks = db
    .select({ markedCorrect: aiClassifications.markedCorrect })
    .from(aiClassifications)
    .orderBy(desc(aiClassifications.createdAt))
    .limit(RECENT * 4)
    .as("k");
  const created = count(messages.id);
  const [resp, cls, marks, active, today, escal, rates, recentAlerts, bankKeywords] = await Promise.all([
    db
      .select({ avg: avg(sql`${messages.sentAt} - ${t.inboundAt}`).mapWith(Number) })
      .from(t)
      .innerJoin(messages, primaryReply)
      .where(isNotNull(messages.sentAt))
      .get(),
    db
      .select({
        ms: avg(recentClassifications.analysisMs).mapWith(Number),
        conf: avg(recentClassifications.confidence).mapWith(Number),
        n: count(),
      })
      .from(recentClassifications)
      .get(),
    db
      .select({ n: count(), right: sum(recentMarks.markedCorrect).mapWith(Number) })
      .from(recentMarks)
      .where(isNotNull(recentMarks.markedCorrect))
      .get(),
    db.select({ n: count() }).from(autoResponders).where(eq(autoResponders.isActive, true)).get(),
    db.select({ n: count() }).from(responderTriggers).where(gte(responderTriggers.createdAt, dayStart)).get(),
    db
      .select({ n: count() })
      .from(responderTriggers)
      .where(
        and(
          gte(responderTriggers.createdAt, new Date(now.getTime() - 30 * 86_400_000)),
          eq(responderTriggers.escalated, true),
        ),
      )
      .get(),
    db
      .select({
        responderId: t.responderId,
        name: autoResponders.name,
        sent: sum(sql`${messages.status} IN ('sent', 'delivered')`).mapWith(Number),
        created,
      })
      .from(t)
      .innerJoin(autoResponders, eq(autoResponders.id, t.responderId))
      .innerJoin(messages, primaryReply)
      .groupBy(t.responderId)
      .orderBy(desc(created))
      .limit(10),
    db.select({ content: alerts.content }).from(alerts).orderBy(desc(alerts.id)).limit(200),
    db.select({ keywords: keywordBanks.keywords }).from(keywordBanks).where(eq(keywordBanks.isActive, true)).limit(200),
  ]);
  const counts = new Map<string, number>();
  const vocabulary = [...new Set(bankKeywords.flatMap((b) => b.keywords))];
  for (const a of recentAlerts)
    for (const k of matchKeywords(a.content, vocabulary)) counts.set(k, (counts.get(k) ?? 0) + 1);
  const round = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v));
  return {
    averageAutoResponseMs: round(resp?.avg),
    averageAnalysisMs: round(cls?.ms),
    averageConfidence: round(cls?.conf),
    accuracy: marks && marks.n > 0 ? Math.round((1000 * (marks.right ?? 0)) / marks.n) / 10 : null,
    markedCount: marks?.n ?? 0,
    classifications: cls?.n ?? 0,
    trendingKeywords: [...counts]
      .map(([keyword, count]) => ({ keyword, count }))
      .sort((a, b) => b.count - a.count)
      .slice(0, 8),
    successRates: rates.map((r) => ({ ...r, rate: r.created ? Math.round((1000 * r.sent) / r.created) / 10 : null })),
    activeResponders: active?.n ?? 0,
    repliesToday: today?.n ?? 0,
    escalations: escal?.n ?? 0,
  };
}

export { formatMs } from "./format-ms";
