import { inArray } from "drizzle-orm";
import type { DomainContext } from "~/db/domain-context";
import { messages } from "~/db/schema";
import { emitWebhookEvents } from "./emit-webhook-event.server";

/**
 * `message.received` for a batch of ordinary inbound replies (an inbound processor the root registers, after the
 * campaigns have attributed them): reads just these messages by primary key. Idempotent: the event id is the
 * message's, so a redelivered inbound job emits nothing new.
 */
export async function emitMessagesReceived(ctx: DomainContext, messageIds: number[]) {
  if (!messageIds.length) return [];
  const rows = await ctx.db
    .select({
      id: messages.id,
      contactId: messages.contactId,
      phone: messages.phone,
      content: messages.content,
      campaignId: messages.campaignId,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(inArray(messages.id, messageIds));
  return emitWebhookEvents(
    ctx,
    rows.map((m) => ({
      type: "message.received" as const,
      key: m.id,
      data: {
        message_id: m.id,
        contact_id: m.contactId,
        from: m.phone,
        body: m.content,
        campaign_id: m.campaignId,
        received_at: m.createdAt.toISOString(),
      },
    })),
  );
}

/**
 * `message.failed` for messages that reached their final failed state (the pipeline's final-failure hook, which the
 * root registers): reads just these messages by primary key. Keyed by the message, so a replayed callback or a
 * redelivered job emits nothing new.
 */
export async function emitMessagesFailed(ctx: DomainContext, messageIds: number[]) {
  if (!messageIds.length) return [];
  const rows = await ctx.db
    .select({
      id: messages.id,
      contactId: messages.contactId,
      phone: messages.phone,
      channel: messages.channel,
      status: messages.status,
      campaignId: messages.campaignId,
      errorCode: messages.errorCode,
      errorMessage: messages.errorMessage,
    })
    .from(messages)
    .where(inArray(messages.id, messageIds));
  return emitWebhookEvents(
    ctx,
    rows.map((m) => ({
      type: "message.failed" as const,
      key: m.id,
      data: {
        message_id: m.id,
        contact_id: m.contactId,
        phone: m.phone,
        channel: m.channel,
        status: m.status,
        error_code: m.errorCode,
        error_message: m.errorMessage,
        campaign_id: m.campaignId,
        failed_at: ctx.now.toISOString(),
      },
    })),
  );
}
