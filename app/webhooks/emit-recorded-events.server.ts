import { and, asc, eq, gt, inArray, max, ne, or } from "drizzle-orm";
import { recordStatus } from "~/activity/system-status.server";
import type { Db } from "~/db/client.server";
import type { DomainContext } from "~/db/domain-context";
import {
  alerts,
  alertSubjectColumns,
  campaignFunnelColumns,
  campaigns,
  complianceEvents,
  systemStatus,
  webhookSubscriptions,
  type WebhookEventType,
} from "~/db/schema";
import { emitWebhookEvents, type WebhookEvent } from "./emit-webhook-event.server";

/** Rows read per table per tick at most. */
export const RECORDED_EVENTS_PER_TICK = 100;

/**
 * Cron task (decision 036): `contact.opted_out` and `alert.created` from the rows every path already writes.
 * Opt-outs come from STOP, plain words, the classifier, carrier error 21610, unsubscribe links and manual changes,
 * and the consent triggers record each in compliance_events (migration 0039) — reading that one table catches them
 * all, where a hook in each path would miss the next path someone adds. Alerts are read the same way from `alerts`.
 * Each table is read past a cursor kept in system_status, through an index on (kind, id) or the primary key: a tick
 * reads the new rows only. The first run starts at the newest row (no history is replayed to a new subscriber).
 */
export async function emitRecordedEvents(ctx: DomainContext, limit = RECORDED_EVENTS_PER_TICK) {
  // Only while someone listens (one read of the short subscription list on an idle tick). A cursor left from an
  // earlier listener is dropped when the next subscription is created or turned on (`dropIdleCursors`), so a new
  // subscriber starts at the newest row instead of receiving history.
  const wanted = await wantedSources(ctx.db);
  const result = { optOuts: 0, alerts: 0, campaigns: 0 };
  if (wanted.has("compliance_events")) result.optOuts = await emitPast(ctx, "compliance_events", limit);
  if (wanted.has("alerts")) result.alerts = await emitPast(ctx, "alerts", limit);
  if (wanted.has("campaigns")) result.campaigns = await emitCompletedCampaigns(ctx);
  return result;
}

type Source = "compliance_events" | "alerts" | "campaigns";
const SOURCE_OF: Partial<Record<WebhookEventType, Source>> = {
  "contact.opted_out": "compliance_events",
  "alert.created": "alerts",
  "campaign.completed": "campaigns",
};

async function wantedSources(db: Db): Promise<Set<Source>> {
  const subs = await db
    .select({ events: webhookSubscriptions.events })
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.enabled, true));
  return new Set(subs.flatMap((s) => s.events.flatMap((e) => SOURCE_OF[e] ?? [])));
}

/** Called before a subscription is created or turned on: cursors nobody reads any more start again at the newest. */
export async function dropIdleCursors(db: Db) {
  const wanted = await wantedSources(db);
  const idle = (["compliance_events", "alerts", "campaigns"] as const).filter((s) => !wanted.has(s));
  if (idle.length)
    await db.delete(systemStatus).where(
      inArray(
        systemStatus.key,
        idle.map((s) => `webhooks:${s}`),
      ),
    );
}

async function emitPast(ctx: DomainContext, source: Exclude<Source, "campaigns">, limit: number) {
  const { db } = ctx;
  const key = `webhooks:${source}` as const;
  const status = await db
    .select({ value: systemStatus.value })
    .from(systemStatus)
    .where(eq(systemStatus.key, key))
    .get();
  const cursor = Number((status?.value as { after?: unknown } | undefined)?.after);
  if (!Number.isFinite(cursor)) {
    const newest =
      source === "alerts"
        ? await db
            .select({ id: max(alerts.id) })
            .from(alerts)
            .get()
        : await db
            .select({ id: max(complianceEvents.id) })
            .from(complianceEvents)
            .where(eq(complianceEvents.kind, "opt_out"))
            .get();
    await recordStatus(db, key, { after: newest?.id ?? 0 }, ctx.now);
    return 0;
  }
  const events: WebhookEvent[] = [];
  let last = cursor;
  if (source === "alerts") {
    const rows = await db
      .select({
        ...alertSubjectColumns,
        inboundMessageId: alerts.inboundMessageId,
        isTest: alerts.isTest,
        createdAt: alerts.createdAt,
      })
      .from(alerts)
      .where(gt(alerts.id, cursor))
      .orderBy(asc(alerts.id))
      .limit(limit);
    for (const a of rows) {
      last = a.id;
      if (a.isTest) continue; // a test alert is the superuser trying Smart Alerts, not a homeowner
      events.push({
        type: "alert.created",
        key: a.id,
        data: {
          alert_id: a.id,
          contact_id: a.contactId,
          phone: a.phone,
          message_id: a.inboundMessageId,
          body: a.content,
          priority: a.priority,
          category: a.category,
          created_at: a.createdAt.toISOString(),
        },
      });
    }
  } else {
    const rows = await db
      .select({
        id: complianceEvents.id,
        at: complianceEvents.at,
        channel: complianceEvents.channel,
        contactId: complianceEvents.contactId,
        address: complianceEvents.address,
        source: complianceEvents.source,
        messageId: complianceEvents.messageId,
      })
      .from(complianceEvents)
      .where(and(eq(complianceEvents.kind, "opt_out"), gt(complianceEvents.id, cursor)))
      .orderBy(asc(complianceEvents.id))
      .limit(limit);
    for (const e of rows) {
      last = e.id;
      events.push({
        type: "contact.opted_out",
        key: e.id,
        data: {
          contact_id: e.contactId,
          channel: e.channel,
          address: e.address,
          source: e.source,
          message_id: e.messageId,
          opted_out_at: new Date(e.at).toISOString(),
        },
      });
    }
  }
  if (last === cursor) return 0;
  // Emission is idempotent per event id, so a tick that fails after emitting and before moving the cursor only
  // re-reads these rows next time; it never sends one twice.
  await emitWebhookEvents(ctx, events);
  await recordStatus(db, key, { after: last }, ctx.now);
  return events.length;
}

/**
 * `campaign.completed`: a trigger completes a campaign (`campaigns_complete_au`), in whatever path empties it, and
 * campaigns complete in no id order, so a cursor on the id alone would miss one. The state kept is the set of
 * campaigns not yet completed when last looked at, and the highest id seen: each tick reads exactly those rows and
 * any newer ones by primary key (a user's unfinished campaigns, a few dozen), emits for the ones now completed, and
 * keeps watching the rest. A completed campaign cannot be started again, so each completes once (keyed by its id).
 */
async function emitCompletedCampaigns(ctx: DomainContext) {
  const { db } = ctx;
  const key = "webhooks:campaigns" as const;
  const status = await db
    .select({ value: systemStatus.value })
    .from(systemStatus)
    .where(eq(systemStatus.key, key))
    .get();
  const state = status?.value as { watching?: unknown; after?: unknown } | undefined;
  const after = Number(state?.after);
  if (!Array.isArray(state?.watching) || !Number.isFinite(after)) {
    // First run: watch what is unfinished now (through campaigns_status_idx); nothing from history is sent.
    const [open, newest] = await Promise.all([
      db.select({ id: campaigns.id }).from(campaigns).where(ne(campaigns.status, "completed")),
      db
        .select({ id: max(campaigns.id) })
        .from(campaigns)
        .get(),
    ]);
    await recordStatus(db, key, { watching: open.map((c) => c.id), after: newest?.id ?? 0 }, ctx.now);
    return 0;
  }
  const watching = state.watching.map(Number).filter(Number.isFinite);
  const rows = await db
    .select({
      ...campaignFunnelColumns,
      finishedCount: campaigns.finishedCount,
      stoppedCount: campaigns.stoppedCount,
      startedAt: campaigns.startedAt,
      completedAt: campaigns.completedAt,
    })
    .from(campaigns)
    .where(watching.length ? or(inArray(campaigns.id, watching), gt(campaigns.id, after)) : gt(campaigns.id, after));
  const done = rows.filter((c) => c.status === "completed");
  await emitWebhookEvents(
    ctx,
    done.map((c) => ({
      type: "campaign.completed" as const,
      key: c.id,
      data: {
        campaign_id: c.id,
        name: c.name,
        counts: {
          contacts: c.contactCount,
          sent: c.sentCount,
          delivered: c.deliveredCount,
          responses: c.responseCount,
          opted_out: c.optedOutCount,
          finished: c.finishedCount,
          stopped: c.stoppedCount,
        },
        started_at: c.startedAt?.toISOString() ?? null,
        completed_at: (c.completedAt ?? ctx.now).toISOString(),
      },
    })),
  );
  // Deleted campaigns drop out of the set by not being found.
  const next = {
    watching: rows.filter((c) => c.status !== "completed").map((c) => c.id),
    after: Math.max(after, ...rows.map((c) => c.id)),
  };
  if (done.length || next.after !== after || next.watching.length !== watching.length)
    await recordStatus(db, key, next, ctx.now);
  return done.length;
}
