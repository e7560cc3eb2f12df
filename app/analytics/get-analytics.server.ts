import { sql } from "drizzle-orm";
import { getStats } from "~/campaigns/get-stats.server";
import type { Db } from "~/db/client.server";
import { providerMode, type ProviderEnv } from "~/messaging/providers/registry.server";
import { dayKeys, rate, type Range } from "./rates";
import { readStatuses } from "./system-status.server";

export type DailyPoint = { day: string; sent: number; delivered: number; failed: number; received: number };

/**
 * Messages per UTC day (of creation) from message_daily_counts: ≤ 90 days × a few (direction, status) rows.
 * sent = handed to a provider (sent, delivered, undelivered, as the stat cards count it); failed = failed + undelivered.
 */
export async function getDailyCounts(db: Db, now: Date, days: Range): Promise<DailyPoint[]> {
  const keys = dayKeys(now, days);
  const rows = await db.all<{ day: string; direction: string; status: string; n: number }>(
    sql`SELECT day, direction, status, n FROM message_daily_counts WHERE day >= ${keys[0]} AND day <= ${keys[keys.length - 1]}`,
  );
  const byDay = new Map(keys.map((day) => [day, { day, sent: 0, delivered: 0, failed: 0, received: 0 }]));
  for (const r of rows) {
    const p = byDay.get(r.day);
    if (!p) continue;
    if (r.direction === "inbound") {
      if (r.status === "received") p.received += r.n;
      continue;
    }
    if (r.status === "sent" || r.status === "delivered" || r.status === "undelivered") p.sent += r.n;
    if (r.status === "delivered") p.delivered += r.n;
    if (r.status === "failed" || r.status === "undelivered") p.failed += r.n;
  }
  return [...byDay.values()];
}

export type CampaignFunnel = {
  id: number;
  name: string;
  status: string;
  enrolled: number;
  sent: number;
  delivered: number;
  replied: number;
  optedOut: number;
  deliveryRate: string;
  responseRate: string;
};

/** The first 5 campaigns (newest first, as the dashboard lists them), from their maintained counters. */
export async function getCampaignPerformance(db: Db, limit = 5): Promise<CampaignFunnel[]> {
  const rows = await db.all<{ id: number; name: string; status: string; contact_count: number; sent_count: number; delivered_count: number; response_count: number; opted_out_count: number }>(
    sql`SELECT id, name, status, contact_count, sent_count, delivered_count, response_count, opted_out_count FROM campaigns ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.status,
    enrolled: r.contact_count,
    sent: r.sent_count,
    delivered: r.delivered_count,
    replied: r.response_count,
    optedOut: r.opted_out_count,
    deliveryRate: rate(r.delivered_count, r.sent_count),
    responseRate: rate(r.response_count, r.sent_count),
  }));
}

export async function getResponderActivity(db: Db, limit = 10) {
  const rows = await db.all<{ id: number; name: string; is_active: number; response_count: number }>(
    sql`SELECT id, name, is_active, response_count FROM auto_responders ORDER BY response_count DESC, id LIMIT ${limit}`,
  );
  return rows.map((r) => ({ id: r.id, name: r.name, isActive: Boolean(r.is_active), responseCount: r.response_count }));
}

export async function getRecentMessages(db: Db, limit = 10) {
  const rows = await db.all<{ id: number; direction: string; status: string; channel: string; phone: string | null; email: string | null; content: string; created_at: number }>(
    sql`SELECT id, direction, status, channel, phone, email, substr(content, 1, 80) AS content, created_at FROM messages ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
  );
  return rows.map((r) => ({ id: r.id, direction: r.direction, status: r.status, channel: r.channel, to: r.phone ?? r.email ?? "", preview: r.content, createdAt: new Date(r.created_at).toISOString() }));
}

type HealthEnv = ProviderEnv & Record<string, unknown>;

/** System health from real checks: D1 round trip, queue backlog, oldest waiting send, last tick, providers. */
export async function getSystemHealth(db: Db, env: HealthEnv, now: Date) {
  const started = Date.now();
  let d1 = { ok: true, latencyMs: 0, error: null as string | null };
  try {
    await db.get(sql`SELECT 1`);
    d1.latencyMs = Date.now() - started;
  } catch (err) {
    d1 = { ok: false, latencyMs: Date.now() - started, error: err instanceof Error ? err.message : String(err) };
  }
  const [backlog, oldest, statuses, lastFailure] = await Promise.all([
    db.all<{ status: string; n: number }>(sql`SELECT status, n FROM message_counts WHERE direction = 'outbound' AND status IN ('pending', 'queued', 'sending')`),
    // Two index seeks (messages_status_created_at_idx), not a scan.
    db.all<{ created_at: number }>(sql`SELECT min(created_at) AS created_at FROM (
      SELECT created_at FROM (SELECT created_at FROM messages WHERE status = 'pending' ORDER BY created_at LIMIT 1)
      UNION ALL SELECT created_at FROM (SELECT created_at FROM messages WHERE status = 'queued' ORDER BY created_at LIMIT 1))`),
    readStatuses(db),
    db.all<{ channel: string; error_message: string | null; error_code: string | null; updated_at: number }>(
      sql`SELECT channel, error_message, error_code, updated_at FROM (SELECT channel, error_message, error_code, updated_at FROM messages WHERE status = 'failed' ORDER BY created_at DESC LIMIT 20)`,
    ),
  ]);
  const mode = providerMode(env);
  const lastError = (channel: "sms" | "email") => {
    const f = lastFailure.find((r) => r.channel === channel);
    return f ? { message: f.error_message ?? f.error_code ?? "Failed", at: new Date(f.updated_at).toISOString() } : null;
  };
  const aiConfigured = Boolean(env.AI) || (typeof env.OPENAI_API_KEY === "string" && env.OPENAI_API_KEY.length > 0);
  const aiError = statuses["provider_error:ai"];
  const tick = statuses.cron_tick;
  const oldestAt = oldest[0]?.created_at ?? null;
  return {
    checkedAt: now.toISOString(),
    d1,
    queue: {
      backlog: backlog.reduce((a, r) => a + r.n, 0),
      byStatus: Object.fromEntries(backlog.map((r) => [r.status, r.n])),
      oldestPendingAt: oldestAt ? new Date(oldestAt).toISOString() : null,
    },
    cron: tick ? { lastTickAt: tick.updatedAt, failed: Number(tick.value.failed ?? 0) } : null,
    providers: {
      sms: { provider: mode.sms, configured: mode.sms !== "outbox", lastError: lastError("sms") },
      email: { provider: mode.email, configured: mode.email !== "outbox", lastError: lastError("email") },
      ai: { provider: aiConfigured ? (env.AI ? "workers-ai" : "openai") : "none", configured: aiConfigured, lastError: aiError ? { message: String(aiError.value.message ?? "Failed"), at: aiError.updatedAt } : null },
    },
  };
}

export async function getAnalytics(db: Db, env: HealthEnv, now: Date, range: Range) {
  const [stats, daily, campaigns, responders, recent, health] = await Promise.all([
    getStats(db),
    getDailyCounts(db, now, range),
    getCampaignPerformance(db),
    getResponderActivity(db),
    getRecentMessages(db),
    getSystemHealth(db, env, now),
  ]);
  return {
    stats: { ...stats, deliveryRate: rate(stats.delivered, stats.messagesSent), responseRate: rate(stats.responses, stats.messagesSent) },
    range,
    daily,
    campaigns,
    responders,
    recent,
    health,
  };
}
