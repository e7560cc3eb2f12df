import { inJson } from "~/db/bulk-update.server";
import type { DomainContext } from "~/db/domain-context";
import { messages, type Message, type WebhookEventType } from "~/db/schema";
import { emitWebhookEvents } from "./emit-webhook-event.server";

/**
 * `message.received` for a batch of ordinary inbound replies (an inbound processor the root registers, after the
 * campaigns have attributed them). Idempotent: the event id is the message's, so a redelivered inbound job emits
 * nothing new.
 */
export function emitMessagesReceived(ctx: DomainContext, messageIds: number[]) {
  return emitPerMessage(
    ctx,
    messageIds,
    "message.received",
    ["contactId", "phone", "content", "campaignId", "createdAt"],
    (m) => ({
      message_id: m.id,
      contact_id: m.contactId,
      from: m.phone,
      body: m.content,
      campaign_id: m.campaignId,
      received_at: m.createdAt.toISOString(),
    }),
  );
}

/**
 * `message.failed` for messages that reached their final failed state (the pipeline's final-failure hook, which the
 * root registers). Keyed by the message, so a replayed callback or a redelivered job emits nothing new.
 */
export function emitMessagesFailed(ctx: DomainContext, messageIds: number[]) {
  return emitPerMessage(
    ctx,
    messageIds,
    "message.failed",
    ["contactId", "phone", "channel", "status", "campaignId", "errorCode", "errorMessage"],
    (m) => ({
      message_id: m.id,
      contact_id: m.contactId,
      phone: m.phone,
      channel: m.channel,
      status: m.status,
      error_code: m.errorCode,
      error_message: m.errorMessage,
      campaign_id: m.campaignId,
      failed_at: ctx.now.toISOString(),
    }),
  );
}

/** Reads just these messages (the id and `fields`) by primary key and emits one `type` event each, keyed by its id. */
async function emitPerMessage<K extends keyof Message>(
  ctx: DomainContext,
  messageIds: number[],
  type: WebhookEventType,
  fields: readonly K[],
  data: (m: Pick<Message, K | "id">) => Record<string, unknown>,
) {
  if (!messageIds.length) return [];
  const columns = Object.fromEntries(["id" as const, ...fields].map((f) => [f, messages[f]]));
  const rows = (await ctx.db.select(columns).from(messages).where(inJson(messages.id, messageIds))) as Pick<
    Message,
    K | "id"
  >[];
  return emitWebhookEvents(
    ctx,
    rows.map((m) => ({ type, key: m.id, data: data(m) })),
  );
}
