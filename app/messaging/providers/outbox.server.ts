// The local provider used when Twilio/SendGrid are not configured: "sending" writes an outbox_messages row, and a
// cron tick later reports it delivered, so the whole pipeline (status callbacks included) runs without accounts.
import { and, asc, desc, eq, gte, lt, lte, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import type { Clock } from "~/lib/clock";
import { outboxMessages } from "~/db/schema";
import { inJson } from "~/db/bulk-update.server";
import type { EmailProvider, ProviderMessage, SendAccepted, SmsProvider } from "./provider";

export const OUTBOX_SMS_SENDER = "+15005550006";
export const OUTBOX_EMAIL_SENDER = "helio@localhost";

export type OutboxOptions = { sender?: string; clock: Clock };
export type OutboxMessage = typeof outboxMessages.$inferSelect;
type Channel = "sms" | "email";

/** "OB" + 32 hex, shaped like a Twilio sid so it fits the same column and logs. */
function newSid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return "OB" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const asAccepted = (status: string): SendAccepted["status"] =>
  status === "queued" || status === "delivered" ? status : "sent";

/**
 * Inserts unless this message (same recipient, channel and messageId) is already in the outbox — a retry after
 * the "provider" accepted it must not create a second copy. One statement, so two concurrent retries cannot both
 * insert. The lookup includes to_address so it uses outbox_messages_to_idx (there is no index on message_id).
 */
async function insertOnce(
  db: Db,
  row: { channel: Channel; to: string; from: string; subject: string | null; body: string; messageId: number },
  now: Date,
): Promise<SendAccepted> {
  const t = now.getTime();
  // raw-sql: guarded-insert
  const inserted = await db.all<Pick<OutboxMessage, "sid" | "status">>(sql`
    INSERT INTO outbox_messages (sid, channel, to_address, from_address, subject, body, status, message_id, created_at, updated_at)
    SELECT ${newSid()}, ${row.channel}, ${row.to}, ${row.from}, ${row.subject}, ${row.body}, 'sent', ${row.messageId}, ${t}, ${t}
    WHERE NOT EXISTS (
      SELECT 1 FROM outbox_messages WHERE to_address = ${row.to} AND channel = ${row.channel} AND message_id = ${row.messageId})
    RETURNING sid, status`);
  if (inserted[0]) return { sid: inserted[0].sid, status: asAccepted(inserted[0].status) };
  const [existing] = await db
    .select({ sid: outboxMessages.sid, status: outboxMessages.status })
    .from(outboxMessages)
    .where(
      and(
        eq(outboxMessages.toAddress, row.to),
        eq(outboxMessages.channel, row.channel),
        eq(outboxMessages.messageId, row.messageId),
      ),
    )
    .orderBy(outboxMessages.id)
    .limit(1);
  if (!existing) throw new Error("outbox: row vanished between insert and lookup"); // only if deleted concurrently
  return { sid: existing.sid, status: asAccepted(existing.status) };
}

export function createOutboxSms(db: Db, options: OutboxOptions): SmsProvider {
  const sender = options.sender || OUTBOX_SMS_SENDER;
  return {
    name: "outbox",
    sender,
    send(msg) {
      return insertOnce(
        db,
        {
          channel: "sms",
          to: msg.to,
          from: msg.from || sender,
          subject: null,
          // The local outbox keeps the pictures' URLs under the text, as the email outbox names its files.
          body: [msg.body, ...(msg.mediaUrls ?? []).map((u) => `[Picture: ${u}]`)].filter(Boolean).join("\n\n"),
          messageId: msg.messageId,
        },
        options.clock(),
      );
    },
    async findSent(to, since): Promise<ProviderMessage[]> {
      const rows = await db
        .select({
          sid: outboxMessages.sid,
          status: outboxMessages.status,
          to: outboxMessages.toAddress,
          body: outboxMessages.body,
          dateCreated: outboxMessages.createdAt,
        })
        .from(outboxMessages)
        .where(
          and(
            eq(outboxMessages.toAddress, to),
            eq(outboxMessages.channel, "sms"),
            gte(outboxMessages.createdAt, since),
          ),
        )
        .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
        .limit(50);
      return rows;
    },
  };
}

export function createOutboxEmail(db: Db, options: OutboxOptions): EmailProvider {
  const sender = options.sender || OUTBOX_EMAIL_SENDER;
  return {
    name: "outbox",
    sender,
    send(msg) {
      // The debug view shows text; html only when there is no text part. Attachments are named under it.
      const files = (msg.attachments ?? []).map((a) => `[Attached: ${a.filename} (${a.contentType})]`);
      const body = [msg.text || msg.html, ...files].join("\n\n");
      return insertOnce(
        db,
        { channel: "email", to: msg.to, from: sender, subject: msg.subject, body, messageId: msg.messageId },
        options.clock(),
      );
    },
  };
}

export type OutboxStatusChange = { sid: string; status: "delivered"; channel: Channel; messageId: number | null };

/**
 * Simulated delivery reports: rows still "sent" for at least `olderThanMs` become "delivered". Returns what changed
 * so the caller can apply it exactly like provider status callbacks. Oldest first, at most `limit` per call.
 */
export async function advanceOutboxStatuses(
  db: Db,
  now: Date,
  { olderThanMs = 2000, limit = 500 }: { olderThanMs?: number; limit?: number } = {},
): Promise<OutboxStatusChange[]> {
  const o = outboxMessages;
  // The due ids first, then the update by key: an UPDATE … IN (subquery) reads 4 rows on a tick with nothing due, the
  // bare SELECT 1 (issue 22: idle ticks). The update checks "sent" again, so an overlapping tick changes nothing twice.
  const due = await db
    .select({ id: o.id })
    .from(o)
    .where(and(eq(o.status, "sent"), lte(o.updatedAt, new Date(now.getTime() - olderThanMs))))
    .orderBy(asc(o.updatedAt))
    .limit(limit);
  if (!due.length) return [];
  const rows = await db
    .update(o)
    .set({ status: "delivered", updatedAt: now })
    .where(
      and(
        inJson(
          o.id,
          due.map((d) => d.id),
        ),
        eq(o.status, "sent"),
      ),
    )
    .returning({ sid: o.sid, channel: o.channel, messageId: o.messageId });
  return rows.map((r) => ({ sid: r.sid, status: "delivered" as const, channel: r.channel, messageId: r.messageId }));
}

/** Newest first, keyset-paged on id: pass the previous page's `nextAfter` as `after`. */
export async function listOutbox(
  db: Db,
  { limit = 50, after = null, channel }: { limit?: number; after?: number | null; channel?: Channel } = {},
): Promise<{ items: OutboxMessage[]; nextAfter: number | null }> {
  const conditions = [
    after !== null ? lt(outboxMessages.id, after) : undefined,
    channel ? eq(outboxMessages.channel, channel) : undefined,
  ];
  const items = await db
    .select()
    .from(outboxMessages)
    .where(and(...conditions))
    .orderBy(desc(outboxMessages.id))
    .limit(limit + 1);
  const more = items.length > limit;
  if (more) items.pop();
  return { items, nextAfter: more ? items[items.length - 1].id : null };
}
