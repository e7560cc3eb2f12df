import { count, desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import type { DomainContext } from "~/db/domain-context";
import { webhookDeliveries, webhookSubscriptions } from "~/db/schema";
import { logActivity } from "~/activity/log-activity.server";
import type { Actor } from "~/lib/actor";
import { AppError, notFound } from "~/lib/app-error";
import { checkWebhookUrl } from "./check-webhook-url.server";
import { dropIdleCursors } from "./emit-recorded-events.server";
import { webhookJob } from "./emit-webhook-event.server";
import type { WebhookSubscriptionInput } from "./webhook-subscription-input";
import { newWebhookSecret } from "./sign-webhook.server";

/** At most this many subscriptions: each event reads them all (decision 036). */
export const MAX_SUBSCRIPTIONS = 20;
/** The delivery log shows this many rows per subscription, newest first. */
export const LOG_PAGE = 50;

type Opts = { allowPrivate: boolean };

/** Creates a subscription; the secret is in the result, once (the screen shows it, nothing shows it again). */
export async function createWebhookSubscription(
  db: Db,
  input: WebhookSubscriptionInput,
  actor: Actor,
  now: Date,
  opts: Opts,
) {
  const url = checkWebhookUrl(input.url, opts).toString();
  const existing = await db.select({ n: count() }).from(webhookSubscriptions).get();
  if ((existing?.n ?? 0) >= MAX_SUBSCRIPTIONS)
    throw new AppError("conflict", `At most ${MAX_SUBSCRIPTIONS} webhooks; delete one first`);
  await dropIdleCursors(db);
  const secret = newWebhookSecret();
  const [row] = await db
    .insert(webhookSubscriptions)
    .values({
      url,
      description: input.description,
      events: [...new Set(input.events)],
      secret,
      maxPerHour: input.maxPerHour,
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: webhookSubscriptions.id });
  await logActivity(db, "create_webhook", {
    ...actor,
    details: { subscriptionId: row.id },
    now,
  });
  return { id: row.id, secret };
}

/** A new secret for a subscription; the old one stops working at once. Returned once. */
export async function rotateWebhookSecret(db: Db, id: number, actor: Actor, now: Date) {
  const secret = newWebhookSecret();
  const rows = await db
    .update(webhookSubscriptions)
    .set({ secret, updatedAt: now })
    .where(eq(webhookSubscriptions.id, id))
    .returning({ id: webhookSubscriptions.id });
  if (!rows.length) throw notFound("Webhook not found");
  await logActivity(db, "rotate_webhook_secret", {
    ...actor,
    details: { subscriptionId: id },
    now,
  });
  return { id, secret };
}

/** Turns a subscription on (clearing its failure run and reason) or off. */
export async function setWebhookEnabled(db: Db, id: number, enabled: boolean, actor: Actor, now: Date) {
  if (enabled) await dropIdleCursors(db);
  const rows = await db
    .update(webhookSubscriptions)
    .set(
      enabled
        ? { enabled, disabledReason: null, consecutiveFailures: 0, failingSince: null, updatedAt: now }
        : { enabled, disabledReason: "Turned off by a superuser", updatedAt: now },
    )
    .where(eq(webhookSubscriptions.id, id))
    .returning({ id: webhookSubscriptions.id });
  if (!rows.length) throw notFound("Webhook not found");
  await logActivity(db, enabled ? "enable_webhook" : "disable_webhook", {
    userId: actor.userId,
    details: { subscriptionId: id },
    now,
  });
}

export async function deleteWebhookSubscription(db: Db, id: number, actor: Actor, now: Date) {
  const rows = await db
    .delete(webhookSubscriptions)
    .where(eq(webhookSubscriptions.id, id))
    .returning({ id: webhookSubscriptions.id });
  if (!rows.length) throw notFound("Webhook not found");
  await logActivity(db, "delete_webhook", {
    ...actor,
    details: { subscriptionId: id },
    now,
  });
}

/** The subscriptions, without their secrets. */
export async function listWebhookSubscriptions(db: Db) {
  return db
    .select({
      id: webhookSubscriptions.id,
      url: webhookSubscriptions.url,
      description: webhookSubscriptions.description,
      events: webhookSubscriptions.events,
      enabled: webhookSubscriptions.enabled,
      disabledReason: webhookSubscriptions.disabledReason,
      consecutiveFailures: webhookSubscriptions.consecutiveFailures,
      maxPerHour: webhookSubscriptions.maxPerHour,
      createdAt: webhookSubscriptions.createdAt,
    })
    .from(webhookSubscriptions)
    .orderBy(desc(webhookSubscriptions.id));
}

/** The delivery log statement: one subscription's newest rows, through webhook_deliveries_log_idx. */
export const deliveryLogQuery = (db: Db, subscriptionId: number, limit = LOG_PAGE) =>
  db
    .select({
      id: webhookDeliveries.id,
      eventId: webhookDeliveries.eventId,
      eventType: webhookDeliveries.eventType,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      lastAttemptAt: webhookDeliveries.lastAttemptAt,
      lastStatusCode: webhookDeliveries.lastStatusCode,
      lastResponse: webhookDeliveries.lastResponse,
      lastDurationMs: webhookDeliveries.lastDurationMs,
      lastError: webhookDeliveries.lastError,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.subscriptionId, subscriptionId))
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit);

/** One subscription (no secret) and its delivery log. */
export async function loadWebhookLog(db: Db, id: number) {
  const [sub] = (await listWebhookSubscriptions(db)).filter((s) => s.id === id);
  if (!sub) throw notFound("Webhook not found");
  return { subscription: sub, deliveries: await deliveryLogQuery(db, id) };
}

/**
 * Replay: the same body (same event id, so the receiver can de-duplicate) goes again as a fresh delivery run —
 * attempts start over and a queue message goes now. A disabled subscription is refused: turn it on first.
 */
export async function replayWebhookDelivery(ctx: DomainContext, deliveryId: number, actor: Actor) {
  const row = await ctx.db
    .select({ id: webhookDeliveries.id, enabled: webhookSubscriptions.enabled, subId: webhookSubscriptions.id })
    .from(webhookDeliveries)
    .innerJoin(webhookSubscriptions, eq(webhookSubscriptions.id, webhookDeliveries.subscriptionId))
    .where(eq(webhookDeliveries.id, deliveryId))
    .get();
  if (!row) throw notFound("Delivery not found");
  if (!row.enabled) throw new AppError("conflict", "Turn the webhook on before replaying a delivery");
  await ctx.db
    .update(webhookDeliveries)
    .set({ status: "pending", attempts: 0, nextAttemptAt: null })
    .where(eq(webhookDeliveries.id, deliveryId));
  await ctx.queue.send(webhookJob(deliveryId));
  await logActivity(ctx.db, "replay_webhook", {
    userId: actor.userId,
    details: { subscriptionId: row.subId, deliveryId },
    now: ctx.now,
  });
  return { subscriptionId: row.subId };
}

/** "Send test event": a `message.received`-shaped test event to this subscription only, marked `test: true`. */
export async function sendTestWebhook(ctx: DomainContext, id: number, actor: Actor) {
  const sub = await ctx.db
    .select({ id: webhookSubscriptions.id, enabled: webhookSubscriptions.enabled })
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.id, id))
    .get();
  if (!sub) throw notFound("Webhook not found");
  if (!sub.enabled) throw new AppError("conflict", "Turn the webhook on before sending a test event");
  const eventId = `evt_test_${ctx.now.getTime()}`;
  const payload = JSON.stringify({
    id: eventId,
    type: "message.received",
    created_at: ctx.now.toISOString(),
    // The shape of a real message.received (webhook-events.ts), so a receiver's parser is tested too.
    data: {
      test: true,
      message_id: 0,
      contact_id: null,
      from: "+15005550006",
      body: "Test event from Helio",
      campaign_id: null,
      received_at: ctx.now.toISOString(),
    },
  });
  const [row] = await ctx.db
    .insert(webhookDeliveries)
    .values({ subscriptionId: id, eventId, eventType: "message.received", payload, createdAt: ctx.now })
    .onConflictDoNothing()
    .returning({ id: webhookDeliveries.id });
  if (row) await ctx.queue.send(webhookJob(row.id));
  await logActivity(ctx.db, "test_webhook", {
    ...actor,
    details: { subscriptionId: id },
    now: ctx.now,
  });
  return { deliveryId: row?.id ?? null };
}
