import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { pendingPreview } from "~/message-center/list-messages.server";

export const THREAD_PAGE = 30;
const WAITING = new Set(["pending", "queued", "sending", "held"]);

export type ThreadMessage = {
  id: number;
  channel: "sms" | "email";
  direction: "inbound" | "outbound";
  kind: string;
  status: string;
  subject: string | null;
  content: string;
  errorMessage: string | null;
  createdAt: string;
};

/** The row as SQLite returns it (snake_case, epoch milliseconds). */
type ThreadRow = Omit<ThreadMessage, "errorMessage" | "createdAt"> & {
  error_message: string | null;
  created_at: number;
};

/**
 * One conversation's messages, oldest → newest on screen, keyset-paged by id: the first page is the newest
 * THREAD_PAGE messages, `before` (the oldest id shown) fetches the earlier ones. A contact's thread walks
 * messages_contact_thread_idx; a bare number's walks messages_phone_thread_idx (messages with no contact).
 */
export async function getThread(
  db: Db,
  who: { contactId: number } | { phone: string },
  opts: { before?: number | null; limit?: number } = {},
) {
  const limit = Math.min(Math.max(opts.limit ?? THREAD_PAGE, 1), 200);
  const where =
    "contactId" in who ? sql`contact_id = ${who.contactId}` : sql`phone = ${who.phone} AND contact_id IS NULL`;
  const rows =
    await db.all<ThreadRow>(sql`SELECT id, channel, direction, kind, status, subject, content, error_message, created_at FROM messages
         WHERE ${where} ${opts.before ? sql`AND id < ${opts.before}` : sql``} ORDER BY id DESC LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit).reverse();
  // A waiting bulk row holds its template until it is sent: show what the contact will read (issue 24, item 12).
  const waiting = (r: ThreadRow) => WAITING.has(r.status) && r.direction === "outbound" && r.content.includes("{{");
  if ("contactId" in who && page.some(waiting)) {
    const contact = await db.get<
      Record<string, unknown>
    >(sql`SELECT first_name, last_name, email AS contact_email, phone AS contact_phone, company, address,
        city, state, zip_code, custom_fields FROM contacts WHERE id = ${who.contactId}`);
    if (contact) for (const r of page) if (waiting(r)) r.content = pendingPreview(r.content, contact);
  }
  return {
    messages: page.map(
      (r): ThreadMessage => ({
        id: r.id,
        channel: r.channel,
        direction: r.direction,
        kind: r.kind,
        status: r.status,
        subject: r.subject,
        content: r.content,
        errorMessage: r.error_message,
        createdAt: new Date(r.created_at).toISOString(),
      }),
    ),
    /** The id to pass as `before` for the earlier page, or null at the start of the conversation. */
    earlierCursor: rows.length > limit ? page[0].id : null,
  };
}

/** The campaigns a contact is enrolled in, newest first (bounded: a contact is in a handful). */
export async function contactCampaigns(db: Db, contactId: number) {
  return db.all<{ id: number; name: string; status: string; enrollmentStatus: string }>(
    sql`SELECT c.id, c.name, c.status, e.status AS enrollmentStatus FROM campaign_enrollments e JOIN campaigns c ON c.id = e.campaign_id
        WHERE e.contact_id = ${contactId} ORDER BY e.id DESC LIMIT 50`,
  );
}

/** Whether a bare number has opted out (the suppression list); a contact's own state is on the contact row. */
export async function phoneOptedOut(db: Db, phone: string) {
  return Boolean(await db.get(sql`SELECT 1 AS x FROM suppressions WHERE channel = 'sms' AND address = ${phone}`));
}
