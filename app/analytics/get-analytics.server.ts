import { and, asc, between, desc, lte, ne, sql, type SQL } from "drizzle-orm";
import { statsFrom, statsStatements } from "~/campaigns/get-stats.server";
import { runBatch, type Db } from "~/db/client.server";
import { seesAllContacts, type ContactViewer } from "~/contacts/contact-scope.server";
import { listMessages } from "~/message-center/list-messages.server";
import {
  autoResponders,
  campaignFunnelColumns,
  campaigns,
  messageDailyCounts,
  messages,
  orgSettings,
} from "~/db/schema";
import { epochMs } from "~/db/stored-values.server";
import { PUBLIC_URL_HOW, publicBaseUrlOf, publicUrlProblem } from "~/messaging/check-public-url.server";
import { providerMode, type ProviderEnv } from "~/messaging/providers/registry.server";
import { dayKeys, rate, type Range } from "./rates";
import { selectStatuses, statusesFrom } from "~/activity/system-status.server";
import { backlogCounts } from "~/message-center/list-messages.server";

// Each part of the screen is a read and the function that shapes its rows, so getAnalytics can send every read in one
// D1 batch: one round trip instead of ten (locally D1 runs one statement at a time, so ten concurrent reads from four
// concurrent page loads queued behind each other; against a remote D1 each is a network round trip).

export type DailyPoint = { day: string; sent: number; delivered: number; failed: number; received: number };
const selectDailyCounts = (db: Db, keys: string[]) =>
  db
    .select({
      day: messageDailyCounts.day,
      direction: messageDailyCounts.direction,
      status: messageDailyCounts.status,
      n: messageDailyCounts.n,
    })
    .from(messageDailyCounts)
    .where(between(messageDailyCounts.day, keys[0], keys[keys.length - 1]));
type DailyRow = Awaited<ReturnType<typeof selectDailyCounts>>[number];

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
/** The first 5 campaigns (newest first, as the dashboard lists them), from their maintained counters. */
const selectCampaignFunnels = (db: Db, limit = 5) =>
  db.select(campaignFunnelColumns).from(campaigns).orderBy(desc(campaigns.createdAt), desc(campaigns.id)).limit(limit);
type FunnelRow = Awaited<ReturnType<typeof selectCampaignFunnels>>[number];

const funnelsFrom = (rows: FunnelRow[]): CampaignFunnel[] =>
  rows.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.status,
    enrolled: r.contactCount,
    sent: r.sentCount,
    delivered: r.deliveredCount,
    replied: r.responseCount,
    optedOut: r.optedOutCount,
    deliveryRate: rate(r.deliveredCount, r.sentCount),
    responseRate: rate(r.responseCount, r.sentCount),
  }));

const selectResponderActivity = (db: Db, limit = 10) =>
  db
    .select({
      id: autoResponders.id,
      name: autoResponders.name,
      isActive: autoResponders.isActive,
      responseCount: autoResponders.responseCount,
    })
    .from(autoResponders)
    .orderBy(desc(autoResponders.responseCount), asc(autoResponders.id))
    .limit(limit);
type ResponderRow = Awaited<ReturnType<typeof selectResponderActivity>>[number];
const respondersFrom = (rows: ResponderRow[]) =>
  rows.map((r) => ({ id: r.id, name: r.name, isActive: r.isActive, responseCount: r.responseCount }));

const selectRecentMessages = (db: Db, limit = 10) =>
  db
    .select({
      id: messages.id,
      direction: messages.direction,
      status: messages.status,
      channel: messages.channel,
      phone: messages.phone,
      email: messages.email,
      content: sql<string>`substr(${messages.content}, 1, 80)`,
      created_at: epochMs(messages.createdAt),
    })
    .from(messages)
    // Staff alert emails are not customer activity (Smart Alerts lists them).
    .where(ne(messages.kind, "alert"))
    .orderBy(desc(messages.id))
    .limit(limit);
type RecentRow = Awaited<ReturnType<typeof selectRecentMessages>>[number];
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
/** The first due message of one status, as a one-row table (a compound SELECT's parts may not ORDER or LIMIT). */
function firstDue(db: Db, name: string, where: SQL) {
  const first = db
    .select({ at: epochMs(messages.scheduledAt).as("at") })
    .from(messages)
    .where(where)
    .orderBy(asc(messages.scheduledAt))
    .limit(1)
    .as(name);
  return db.select({ at: first.at }).from(first);
}

/** Two index seeks (messages_due_idx), not a scan: the oldest message due and still waiting, by when it fell due. */
function selectOldestWaiting(db: Db, now: Date) {
  // The literal statuses: messages_due_idx is partial and a bound status cannot use it.
  const waiting = firstDue(db, "p", and(sql`${messages.status} = 'pending'`, lte(messages.scheduledAt, now))!)
    .unionAll(firstDue(db, "q", sql`${messages.status} = 'queued'`))
    .as("w");
  return db.select({ created_at: sql<number | null>`min(${waiting.at})` }).from(waiting);
}

const selectLastFailures = (db: Db) =>
  db
    .select({
      channel: messages.channel,
      error_message: messages.errorMessage,
      error_code: messages.errorCode,
      updated_at: epochMs(messages.updatedAt),
    })
    .from(messages)
    .where(sql`${messages.status} = 'failed'`)
    .orderBy(desc(messages.id))
    .limit(20);

type HealthRows = [
  Awaited<ReturnType<typeof backlogCounts>>,
  Awaited<ReturnType<typeof selectOldestWaiting>>,
  Parameters<typeof statusesFrom>[0],
  Awaited<ReturnType<typeof selectLastFailures>>,
];

/** The reads behind the health card (all index seeks or tiny tables). */
function healthStatements(db: Db, now: Date) {
  return [backlogCounts(db), selectOldestWaiting(db, now), selectStatuses(db), selectLastFailures(db)] as const;
}

/** A D1 round trip of its own, timed: the health card's latency and whether D1 answers at all. */
async function pingD1(db: Db) {
  const started = Date.now();
  try {
    // One primary-key row at most of a handful: a round trip, not a read.
    await db
      .select({ one: sql`1` })
      .from(orgSettings)
      .limit(1);
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

/**
 * The Analytics screen: the D1 ping, then every other read in one batch. The figures are the team's; the recent
 * messages are those the viewer sees (a standard user's own and unowned contacts', decision 052).
 */
export async function getAnalytics(db: Db, env: HealthEnv, now: Date, range: Range, viewer: ContactViewer) {
  const keys = dayKeys(now, range);
  const [d1, scoped] = await Promise.all([
    pingD1(db),
    seesAllContacts(viewer, db).then((all) => (all ? null : listMessages(db, { viewer, limit: 10 }))),
  ]);
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
    recent: scoped
      ? scoped.messages.map((m) => ({
          id: m.id,
          direction: m.direction,
          status: m.status,
          channel: m.channel,
          to: m.phone ?? m.email ?? "",
          preview: m.content.slice(0, 80),
          createdAt: m.createdAt,
        }))
      : recentFrom(recent),
    health: healthFrom(d1, health, env, now),
  };
}
