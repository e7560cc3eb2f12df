import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
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
  const [resp, cls, marks, active, today, escal, rates, recentAlerts, bankKeywords] = await Promise.all([
    db.get<{ avg: number | null }>(sql`
      SELECT avg(m.sent_at - t.inbound_at) AS avg FROM (SELECT * FROM responder_triggers ORDER BY id DESC LIMIT ${RECENT}) t
      JOIN messages m ON m.idempotency_key = 'auto:' || t.inbound_message_id || ':' || t.responder_id || ':primary'
      WHERE m.sent_at IS NOT NULL`),
    db.get<{ ms: number | null; conf: number | null; n: number }>(sql`
      SELECT avg(analysis_ms) AS ms, avg(confidence) AS conf, count(*) AS n FROM (SELECT analysis_ms, confidence FROM ai_classifications ORDER BY created_at DESC LIMIT ${RECENT})`),
    db.get<{ n: number; right: number | null }>(sql`
      SELECT count(*) AS n, sum(marked_correct) AS right FROM (SELECT marked_correct FROM ai_classifications ORDER BY created_at DESC LIMIT ${RECENT * 4}) WHERE marked_correct IS NOT NULL`),
    db.get<{ n: number }>(sql`SELECT count(*) AS n FROM auto_responders WHERE is_active = 1`),
    db.get<{ n: number }>(sql`SELECT count(*) AS n FROM responder_triggers WHERE created_at >= ${dayStart.getTime()}`),
    db.get<{ n: number }>(sql`SELECT count(*) AS n FROM responder_triggers WHERE created_at >= ${now.getTime() - 30 * 86_400_000} AND escalated = 1`),
    db.all<{ responderId: number; name: string; sent: number; created: number }>(sql`
      SELECT t.responder_id AS responderId, r.name, sum(m.status IN ('sent', 'delivered')) AS sent, count(m.id) AS created
      FROM (SELECT * FROM responder_triggers ORDER BY id DESC LIMIT ${RECENT}) t
      JOIN auto_responders r ON r.id = t.responder_id
      JOIN messages m ON m.idempotency_key = 'auto:' || t.inbound_message_id || ':' || t.responder_id || ':primary'
      GROUP BY t.responder_id ORDER BY created DESC LIMIT 10`),
    db.all<{ content: string }>(sql`SELECT content FROM alerts ORDER BY id DESC LIMIT 200`),
    db.all<{ keywords: string }>(sql`SELECT keywords FROM keyword_banks WHERE is_active = 1 LIMIT 200`),
  ]);
  const counts = new Map<string, number>();
  const vocabulary = [...new Set(bankKeywords.flatMap((b) => JSON.parse(b.keywords) as string[]))];
  for (const a of recentAlerts) for (const k of matchKeywords(a.content, vocabulary)) counts.set(k, (counts.get(k) ?? 0) + 1);
  const round = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v));
  return {
    averageAutoResponseMs: round(resp?.avg),
    averageAnalysisMs: round(cls?.ms),
    averageConfidence: round(cls?.conf),
    accuracy: marks && marks.n > 0 ? Math.round((1000 * (marks.right ?? 0)) / marks.n) / 10 : null,
    markedCount: marks?.n ?? 0,
    classifications: cls?.n ?? 0,
    trendingKeywords: [...counts].map(([keyword, count]) => ({ keyword, count })).sort((a, b) => b.count - a.count).slice(0, 8),
    successRates: rates.map((r) => ({ ...r, rate: r.created ? Math.round((1000 * r.sent) / r.created) / 10 : null })),
    activeResponders: active?.n ?? 0,
    repliesToday: today?.n ?? 0,
    escalations: escal?.n ?? 0,
  };
}

export { formatMs } from "./format-ms";
