import { sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";

import { MESSAGE_TABS, type MessageTab } from "./message-tabs";
import { ftsQuery } from "~/lib/fts";
import { likeContains, searchText } from "~/lib/search-text";
export { MESSAGE_TABS, type MessageTab };
export const MESSAGES_PAGE = 50;
/** 1–2 character searches cannot use the trigram index: they look through the newest 50,000 messages only. */
export const SHORT_SEARCH_WINDOW = 50_000;

export type MessageListItem = {
  id: number;
  content: string;
  phone: string | null;
  email: string | null;
  subject: string | null;
  channel: "sms" | "email";
  kind: string;
  direction: "inbound" | "outbound";
  status: string;
  createdAt: string;
  twilioSid: string | null;
  campaignId: number | null;
  contactId: number | null;
  contactName: string | null;
  errorMessage: string | null;
  isTest: boolean;
};

const TAB_FILTER: Record<MessageTab, SQL> = {
  all: sql`1`,
  incoming: sql`m.direction = 'inbound'`,
  outgoing: sql`m.direction = 'outbound'`,
  // Written as the partial index messages_failed_idx is (an IN list would not match it).
  failed: sql`(m.status = 'failed' OR m.status = 'undelivered')`,
};

/**
 * Newest first, keyset-paged by id (ids grow with time), one page per call. Search is case-insensitive on
 * content and matches the phone (SPEC §2), through FTS5 for 3+ characters and a bounded scan below that.
 */
export async function listMessages(db: Db, opts: { q?: string | null; tab?: MessageTab; before?: number | null; limit?: number } = {}) {
  const limit = Math.min(Math.max(opts.limit ?? MESSAGES_PAGE, 1), 500);
  const q = searchText(opts.q);
  const match = q ? ftsQuery(q) : null;
  const tab = TAB_FILTER[opts.tab ?? "all"];
  // The name of the contact, also for messages from a number that became a contact later.
  const select = sql`SELECT m.id, m.content, m.phone, m.email, m.subject, m.channel, m.kind, m.direction, m.status, m.created_at,
      m.twilio_sid, m.campaign_id, m.contact_id, m.error_message, m.is_test, c.first_name, c.last_name
    FROM messages m
    LEFT JOIN contacts c ON c.id = coalesce(m.contact_id, (SELECT id FROM contacts WHERE phone = m.phone))`;
  const rows = match
    ? // The FTS index walks rowids newest first; the tab filter and cursor apply inside the same walk.
      await db.all<Record<string, unknown>>(sql`${select}
        JOIN messages_fts f ON f.rowid = m.id
        WHERE messages_fts MATCH ${match} AND ${tab} ${opts.before ? sql`AND f.rowid < ${opts.before}` : sql``}
        ORDER BY f.rowid DESC LIMIT ${limit + 1}`)
    : await db.all<Record<string, unknown>>(sql`${select}
        WHERE ${tab} ${opts.before ? sql`AND m.id < ${opts.before}` : sql``}
          ${q ? sql`AND m.id > (SELECT max(id) FROM messages) - ${SHORT_SEARCH_WINDOW} AND (m.content LIKE ${likeContains(q)} ESCAPE '\\' OR m.phone LIKE ${likeContains(q)} ESCAPE '\\')` : sql``}
        ORDER BY m.id DESC LIMIT ${limit + 1}`);
  const items: MessageListItem[] = rows.slice(0, limit).map((r) => ({
    id: r.id as number,
    content: r.content as string,
    phone: (r.phone as string) ?? null,
    email: (r.email as string) ?? null,
    subject: (r.subject as string) ?? null,
    channel: r.channel as "sms" | "email",
    kind: r.kind as string,
    direction: r.direction as "inbound" | "outbound",
    status: r.status as string,
    createdAt: new Date(r.created_at as number).toISOString(),
    twilioSid: (r.twilio_sid as string) ?? null,
    campaignId: (r.campaign_id as number) ?? null,
    contactId: (r.contact_id as number) ?? null,
    contactName: r.first_name ? `${r.first_name} ${r.last_name ?? ""}`.trim() : null,
    errorMessage: (r.error_message as string) ?? null,
    isTest: Boolean(r.is_test),
  }));
  return { messages: items, nextCursor: rows.length > limit ? items.at(-1)!.id : null };
}

/** Tab counts from the trigger-maintained message_counts table: one small read, whatever the volume. */
export async function messageTabCounts(db: Db): Promise<Record<MessageTab, number>> {
  const rows = await db.all<{ direction: string; status: string; n: number }>(sql`SELECT direction, status, n FROM message_counts`);
  const sum = (f: (r: { direction: string; status: string }) => boolean) => rows.filter(f).reduce((a, r) => a + r.n, 0);
  return {
    all: sum(() => true),
    incoming: sum((r) => r.direction === "inbound"),
    outgoing: sum((r) => r.direction === "outbound"),
    failed: sum((r) => r.status === "failed" || r.status === "undelivered"),
  };
}

/**
 * Outbound messages waiting, by step: the counters keep pending, queued and sending as one bucket (the pipeline's own
 * steps write no counter rows, migration 0041), so these are counted on messages_due_idx, which holds only them.
 * Each count stops at 100,000 so a screen never reads more than that.
 */
export const backlogCountsSql = sql`
  SELECT 'pending' AS status, count(*) AS n FROM (SELECT 1 FROM messages WHERE status = 'pending' LIMIT 100000)
  UNION ALL SELECT 'queued', count(*) FROM (SELECT 1 FROM messages WHERE status = 'queued' LIMIT 100000)
  UNION ALL SELECT 'sending', count(*) FROM (SELECT 1 FROM messages WHERE status = 'sending' LIMIT 100000)`;

/**
 * What is waiting to go out and how fast it can: outbound pending (scheduled or deferred by quiet hours /
 * daily cap), queued and in-flight counts, plus each sender's pacing state. All small reads.
 */
export async function sendingBacklog(db: Db, now: Date) {
  const [counts, senders, nextDue] = await Promise.all([
    db.all<{ status: string; n: number }>(backlogCountsSql),
    db.all<{ sender: string; next_slot_ms: number; day: string; day_count: number }>(
      sql`SELECT sender, next_slot_ms, day, day_count FROM sender_pacing ORDER BY sender LIMIT 20`,
    ),
    db.get<{ at: number | null }>(sql`SELECT min(scheduled_at) AS at FROM messages WHERE status = 'pending'`),
  ]);
  const n = (s: string) => counts.find((c) => c.status === s)?.n ?? 0;
  const today = now.toISOString().slice(0, 10);
  return {
    pending: n("pending"),
    queued: n("queued"),
    sending: n("sending"),
    nextScheduledAt: nextDue?.at ? new Date(nextDue.at).toISOString() : null,
    senders: senders.map((s) => ({
      sender: s.sender,
      sentToday: s.day === today ? s.day_count : 0,
      busyUntil: s.next_slot_ms > now.getTime() ? new Date(s.next_slot_ms).toISOString() : null,
    })),
  };
}
