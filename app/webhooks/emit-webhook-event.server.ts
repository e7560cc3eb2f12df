import { eq } from "drizzle-orm";
import type { DomainContext } from "~/db/domain-context";
import { webhookDeliveries, webhookSubscriptions, type WebhookEventType } from "~/db/schema";

export type WebhookEvent = {
  type: WebhookEventType;
  /**
   * What makes the event unique at its source (a message id, an alert id…): the event id is built from it, so the
   * same source event running twice (a redelivered queue job) is delivered once per subscription.
   */
  key: string | number;
  data: Record<string, unknown>;
};

export const webhookJob = (deliveryId: number) => ({ v: 1 as const, type: "webhook-delivery" as const, deliveryId });

/** The event id receivers see (`id` in the body, `Helio-Event-Id`): stable per source event. */
export const webhookEventId = (e: Pick<WebhookEvent, "type" | "key">) => `evt_${e.type.replace(".", "_")}_${e.key}`;

/**
 * Emits events to every enabled subscription that chose their type (decision 036): one delivery row per event and
 * subscription (unique on the event id, so a replayed source emits nothing new) and one queue message per new row.
 * Reads the subscriptions (a handful of rows: a superuser's list) and writes only the new deliveries.
 */
export async function emitWebhookEvents(ctx: DomainContext, events: WebhookEvent[]): Promise<number[]> {
  if (!events.length) return [];
  const subs = await ctx.db
    .select({ id: webhookSubscriptions.id, events: webhookSubscriptions.events })
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.enabled, true));
  const rows = events.flatMap((e) => {
    const id = webhookEventId(e);
    const payload = JSON.stringify({ id, type: e.type, created_at: ctx.now.toISOString(), data: e.data });
    return subs
      .filter((s) => s.events.includes(e.type))
      .map((s) => ({
        subscriptionId: s.id,
        eventId: id,
        eventType: e.type,
        payload,
        status: "pending" as const,
        createdAt: ctx.now,
      }));
  });
  if (!rows.length) return [];
  const ids: number[] = [];
  // A few rows per event; chunked so a batch of replies stays under D1's 100 bound parameters per statement.
  for (let i = 0; i < rows.length; i += 12) {
    const inserted = await ctx.db
      .insert(webhookDeliveries)
      .values(rows.slice(i, i + 12))
      .onConflictDoNothing()
      .returning({ id: webhookDeliveries.id });
    ids.push(...inserted.map((r) => r.id));
  }
  // A queue takes at most 100 messages per sendBatch.
  for (let i = 0; i < ids.length; i += 100)
    await ctx.queue.sendBatch(ids.slice(i, i + 100).map((id) => ({ body: webhookJob(id) })));
  return ids;
}

/** One event (the features' hooks call this). */
export const emitWebhookEvent = (ctx: DomainContext, event: WebhookEvent) => emitWebhookEvents(ctx, [event]);

/**
 * `lead.created`, for the lead webhook (issue 26 item 2) to call once a lead is merged: the contact's id and what
 * the lead carried. Keyed by the contact and the lead's time, so the same lead posted twice is one event.
 */
export function emitLeadCreated(
  ctx: DomainContext,
  lead: {
    contactId: number;
    phone: string | null;
    source: string | null;
    created: boolean;
    fields?: Record<string, unknown>;
  },
) {
  return emitWebhookEvent(ctx, {
    type: "lead.created",
    key: `${lead.contactId}_${ctx.now.getTime()}`,
    data: {
      contact_id: lead.contactId,
      phone: lead.phone,
      source: lead.source,
      created: lead.created,
      ...(lead.fields ? { fields: lead.fields } : {}),
    },
  });
}
