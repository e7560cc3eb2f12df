import { sql } from "drizzle-orm";
import { statsFrom, statsStatements } from "~/campaigns/get-stats.server";
import { runBatch, type Db } from "~/db/client.server";
import { PUBLIC_URL_HOW, publicBaseUrlOf, publicUrlProblem } from "~/messaging/check-public-url.server";
import { providerMode, type ProviderEnv } from "~/messaging/providers/registry.server";
import { dayKeys, rate, type Range } from "./rates";
import { selectStatuses, statusesFrom } from "~/activity/system-status.server";
import { backlogCounts } from "~/message-center/list-messages.server";

// Each part of the screen is a read and the function that shapes its rows, so getAnalytics can send every read in one
// D1 batch: one round trip instead of ten (locally D1 runs one statement at a time, so ten concurrent reads from four
// concurrent page loads queued behind each other; against a remote D1 each is a network round trip).

export type DailyPoint = { day: string; sent: number; delivered: number; failed: number; received: number };
type DailyRow = { day: string; direction: string; status: string; n: number };

const selectDailyCounts = (db: Db, keys: string[]) =>
  db.all<DailyRow>(
    sql`SELECT day, direction, status, n FROM message_daily_counts WHERE day >= ${keys[0]} AND day <= ${keys[keys.length - 1]}`,
  );

/**
 * Messages per UTC day (of creation) from message_daily_counts: ≤ 90 days × a few (direction, status) rows.
 * sent = handed to a provider (sent, delivered, undelivered, as the stat cards count it); failed = failed + undelivered.
 */
function dailyPointsFrom(keys: string[], rows: DailyRow[]): DailyPoint[] {
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

export async function getDailyCounts(db: Db, now: Date, days: Range): Promise<DailyPoint[]> {
  const keys = dayKeys(now, days);
  return dailyPointsFrom(keys, await selectDailyCounts(db, keys));
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
type FunnelRow = {
  id: number;
  name: string;
  status: string;
  contact_count: number;
  sent_count: number;
  delivered_count: number;
  response_count: number;
  opted_out_count: number;
};

/** The first 5 campaigns (newest first, as the dashboard lists them), from their maintained counters. */
const selectCampaignFunnels = (db: Db, limit = 5) =>
  db.all<FunnelRow>(
    sql`SELECT id, name, status, contact_count, sent_count, delivered_count, response_count, opted_out_count FROM campaigns ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
  );

const funnelsFrom = (rows: FunnelRow[]): CampaignFunnel[] =>
  rows.map((r) => ({
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

type ResponderRow = { id: number; name: string; is_active: number; response_count: number };
const selectResponderActivity = (db: Db, limit = 10) =>
  db.all<ResponderRow>(
    sql`SELECT id, name, is_active, response_count FROM auto_responders ORDER BY response_count DESC, id LIMIT ${limit}`,
  );
const respondersFrom = (rows: ResponderRow[]) =>
  rows.map((r) => ({ id: r.id, name: r.name, isActive: Boolean(r.is_active), responseCount: r.response_count }));

type RecentRow = {
  id: number;
  direction: string;
  status: string;
  channel: string;
  phone: string | null;
  email: string | null;
  content: string;
  created_at: number;
};
const selectRecentMessages = (db: Db, limit = 10) =>
  db.all<RecentRow>(
    // Staff alert emails are not customer activity (Smart Alerts lists them).
    sql`SELECT id, direction, status, channel, phone, email, substr(content, 1, 80) AS content, created_at FROM messages WHERE kind <> 'alert' ORDER BY id DESC LIMIT ${limit}`,
  );
const recentFrom = (rows: RecentRow[]) =>
  rows.map((r) => ({
    id: r.id,
    direction: r.direction,
    status: r.status,
    channel: r.channel,
    to: r.phone ?? r.email ?? "",
    preview: r.content,
    createdAt: new Date(r.created_at).toISOString(),
  }));

type HealthEnv = ProviderEnv & { PUBLIC_BASE_URL?: string } & Record<string, unknown>;
type BacklogRow = { status: string; n: number };
type FailureRow = { channel: string; error_message: string | null; error_code: string | null; updated_at: number };
type HealthRows = [BacklogRow[], { created_at: number | null }[], Parameters<typeof statusesFrom>[0], FailureRow[]];

/** The reads behind the health card (all index seeks or tiny tables). */
function healthStatements(db: Db, now: Date) {
  return [
    backlogCounts(db),
    // Two index seeks (messages_due_idx), not a scan: the oldest message due and still waiting, by when it fell due.
    db.all<{ created_at: number | null }>(sql`SELECT min(at) AS created_at FROM (
      SELECT at FROM (SELECT scheduled_at AS at FROM messages WHERE status = 'pending' AND scheduled_at <= ${now.getTime()} ORDER BY scheduled_at LIMIT 1)
      UNION ALL SELECT at FROM (SELECT scheduled_at AS at FROM messages WHERE status = 'queued' ORDER BY scheduled_at LIMIT 1))`),
    selectStatuses(db),
    db.all<FailureRow>(
      sql`SELECT channel, error_message, error_code, updated_at FROM (SELECT channel, error_message, error_code, updated_at FROM messages WHERE status = 'failed' ORDER BY id DESC LIMIT 20)`,
    ),
  ] as const;
}

/** A D1 round trip of its own, timed: the health card's latency and whether D1 answers at all. */
async function pingD1(db: Db) {
  const started = Date.now();
  try {
    await db.get(sql`SELECT 1`);
    return { ok: true, latencyMs: Date.now() - started, error: null as string | null };
  } catch (err) {
    return { ok: false, latencyMs: Date.now() - started, error: err instanceof Error ? err.message : String(err) };
  }
}

function healthFrom(
  d1: Awaited<ReturnType<typeof pingD1>>,
  [backlog, oldest, statusRows, lastFailure]: HealthRows,
  env: HealthEnv,
  now: Date,
) {
  const statuses = statusesFrom(statusRows);
  const mode = providerMode(env);
  const lastError = (channel: "sms" | "email") => {
    const f = lastFailure.find((r) => r.channel === channel);
    return f
      ? { message: f.error_message ?? f.error_code ?? "Failed", at: new Date(f.updated_at).toISOString() }
      : null;
  };
  const aiConfigured = Boolean(env.AI) || (typeof env.OPENAI_API_KEY === "string" && env.OPENAI_API_KEY.length > 0);
  const aiError = statuses["provider_error:ai"];
  const tick = statuses.cron_tick;
  const oldestAt = oldest[0]?.created_at ?? null;
  const refused = statuses["refused:public_url"];
  const problem = publicUrlProblem(env);
  return {
    checkedAt: now.toISOString(),
    // The configuration that makes sends and Twilio webhooks refuse (decision 018), with the last refusal recorded.
    publicUrl: {
      value: publicBaseUrlOf(env) || null,
      problem,
      how: problem ? PUBLIC_URL_HOW : null,
      lastRefusal: problem && refused ? { what: String(refused.value.what ?? ""), at: refused.updatedAt } : null,
    },
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
      ai: {
        provider: aiConfigured ? (env.AI ? "workers-ai" : "openai") : "none",
        configured: aiConfigured,
        lastError: aiError ? { message: String(aiError.value.message ?? "Failed"), at: aiError.updatedAt } : null,
      },
    },
  };
}

/** System health from real checks: D1 round trip, queue backlog, oldest waiting send, last tick, providers. */
export async function getSystemHealth(db: Db, env: HealthEnv, now: Date) {
  const d1 = await pingD1(db);
  return healthFrom(d1, (await runBatch(db, healthStatements(db, now))) as HealthRows, env, now);
}

/** The Analytics screen: the D1 ping, then every other read in one batch. */
export async function getAnalytics(db: Db, env: HealthEnv, now: Date, range: Range) {
  const keys = dayKeys(now, range);
  const d1 = await pingD1(db);
  const results = await runBatch(db, [
    ...statsStatements(db),
    selectDailyCounts(db, keys),
    selectCampaignFunnels(db),
    selectResponderActivity(db),
    selectRecentMessages(db),
    ...healthStatements(db, now),
  ]);
  const [counts, totals, daily, funnels, responders, recent, ...health] = results as [
    Parameters<typeof statsFrom>[0],
    Parameters<typeof statsFrom>[1],
    DailyRow[],
    FunnelRow[],
    ResponderRow[],
    RecentRow[],
    ...HealthRows,
  ];
  const stats = statsFrom(counts, totals);
  return {
    stats: {
      ...stats,
      deliveryRate: rate(stats.delivered, stats.messagesSent),
      responseRate: rate(stats.responses, stats.messagesSent),
    },
    range,
    daily: dailyPointsFrom(keys, daily),
    campaigns: funnelsFrom(funnels),
    responders: respondersFrom(responders),
    recent: recentFrom(recent),
    health: healthFrom(d1, health, env, now),
  };
}
