import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import type { MessageKind } from "~/db/schema";
import type { SendJob } from "~/jobs/jobs";

/** The part of a Queue binding the pipeline uses (tests pass a recorder). */
export type JobQueue = {
  sendBatch(messages: Iterable<MessageSendRequest<unknown>>): Promise<unknown>;
  send(body: unknown, options?: QueueSendOptions): Promise<unknown>;
};

/** Kinds that are marketing: they respect quiet hours. Tests and compliance replies do not. */
export const MARKETING_KINDS: ReadonlySet<MessageKind> = new Set(["campaign", "broadcast", "quick", "individual"]);

export type OutboundInput = {
  channel: "sms" | "email";
  kind: MessageKind;
  content: string;
  idempotencyKey: string;
  contactId?: number | null;
  phone?: string | null;
  email?: string | null;
  subject?: string | null;
  scheduledAt?: Date | null;
  campaignId?: number | null;
  stepId?: number | null;
  enrollmentId?: number | null;
  broadcastId?: number | null;
  createdBy?: number | null;
};

const INSERT_CHUNK = 500;

/**
 * Writes outbound messages as `pending` rows first (the durable record), each with a unique idempotency
 * key: inserting the same logical send twice is a no-op. Due rows are then queued. Returns the ids of
 * rows this call created, and the ids of all rows for the given keys (created now or before).
 */
export async function createOutboundMessages(db: Db, queue: JobQueue, inputs: OutboundInput[], now: Date) {
  const t = now.getTime();
  const created: number[] = [];
  for (let i = 0; i < inputs.length; i += INSERT_CHUNK) {
    const json = JSON.stringify(
      inputs.slice(i, i + INSERT_CHUNK).map((m) => ({
        ...m,
        isMarketing: MARKETING_KINDS.has(m.kind) ? 1 : 0,
        isTest: m.kind === "test" ? 1 : 0,
        scheduledAt: Math.max(m.scheduledAt?.getTime() ?? t, 0),
      })),
    );
    const rows = await db.all<{ id: number }>(sql`
      INSERT INTO messages (channel, direction, kind, status, contact_id, campaign_id, step_id, enrollment_id, broadcast_id,
        phone, email, subject, content, idempotency_key, is_marketing, is_test, scheduled_at, attempts, created_by, created_at, updated_at)
      SELECT json_extract(value,'$.channel'), 'outbound', json_extract(value,'$.kind'), 'pending', json_extract(value,'$.contactId'),
        json_extract(value,'$.campaignId'), json_extract(value,'$.stepId'), json_extract(value,'$.enrollmentId'), json_extract(value,'$.broadcastId'),
        json_extract(value,'$.phone'), json_extract(value,'$.email'), json_extract(value,'$.subject'), json_extract(value,'$.content'),
        json_extract(value,'$.idempotencyKey'), json_extract(value,'$.isMarketing'), json_extract(value,'$.isTest'),
        json_extract(value,'$.scheduledAt'), 0, json_extract(value,'$.createdBy'), ${t}, ${t}
      FROM json_each(${json}) WHERE true
      ON CONFLICT(idempotency_key) DO NOTHING
      RETURNING id`);
    created.push(...rows.map((r) => r.id));
  }
  await enqueueDueMessages(db, queue, now, created);
  return created;
}

/**
 * pending → queued for due rows, then one queue message per row (sendBatch, 100 at a time). A row whose
 * queue message is lost stays `queued`; the cron reconciler re-enqueues it and the consumer's claim makes
 * duplicates harmless.
 */
export async function enqueueDueMessages(db: Db, queue: JobQueue, now: Date, ids: number[]) {
  const t = now.getTime();
  let queued = 0;
  for (let i = 0; i < ids.length; i += 1000) {
    // `+status`: find the rows by id; the status index would scan the whole pending backlog.
    const rows = await db.all<{ id: number }>(sql`
      UPDATE messages SET status = 'queued', updated_at = ${t}
      WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids.slice(i, i + 1000))}))
        AND +status = 'pending' AND scheduled_at <= ${t}
      RETURNING id`);
    await sendJobs(queue, rows.map((r) => r.id));
    queued += rows.length;
  }
  return queued;
}

export async function sendJobs(queue: JobQueue, ids: number[]) {
  for (let i = 0; i < ids.length; i += 100) {
    const body: SendJob[] = ids.slice(i, i + 100).map((messageId) => ({ v: 1, type: "send", messageId }));
    if (body.length) await queue.sendBatch(body.map((b) => ({ body: b, contentType: "json" })));
  }
}

/**
 * Cron: everything pending whose time has come (scheduled sends, quiet-hours deferrals), in chunks of 1000,
 * at most `maxPerTick` per invocation (each 100 are one queue send, and an invocation's subrequests are
 * limited); the rest goes next minute.
 */
export async function dispatchDueMessages(db: Db, queue: JobQueue, now: Date, maxPerTick = 40_000) {
  let total = 0;
  for (;;) {
    const due = await db.all<{ id: number }>(
      sql`SELECT id FROM messages WHERE status = 'pending' AND scheduled_at <= ${now.getTime()} ORDER BY scheduled_at LIMIT 1000`,
    );
    if (due.length === 0) break;
    total += await enqueueDueMessages(db, queue, now, due.map((d) => d.id));
    if (due.length < 1000 || total >= maxPerTick) break;
  }
  return total;
}
