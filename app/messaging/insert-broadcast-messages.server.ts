import { sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";

export type BroadcastRow = {
  bid: SQL | number;
  type: "sms" | "email";
  subject: string | null;
  content: string;
  status: "queued" | "pending";
  at: number;
  createdBy: number | null;
  t: number;
};

/**
 * One message per contact of `who` (a WHERE term on the contacts as `c`), keyed `bcast:{id}:{contact}` and read from
 * contacts inside the database: the picked contacts' chunks and a segment's resolution steps both write this way.
 * An email broadcast skips contacts without an address.
 */
export function insertBroadcastMessages(db: Db, b: BroadcastRow, who: SQL) {
  // A bound JS number reaches SQLite as a REAL, which would spell the key `bcast:1.0:…`: the id goes as text.
  const bid = typeof b.bid === "number" ? String(b.bid) : b.bid;
  // drizzle's insert().select() wants every column of messages, in order.
  // raw-sql: insert-select
  return db.run(sql`
    INSERT INTO messages (channel, direction, kind, status, contact_id, broadcast_id, phone, email, subject, content, idempotency_key,
      is_marketing, is_test, scheduled_at, attempts, created_by, created_at, updated_at)
    SELECT ${b.type}, 'outbound', 'broadcast', ${b.status}, c.id, ${bid}, c.phone, c.email, ${b.subject}, ${b.content},
      'bcast:' || ${bid} || ':' || c.id, 1, 0, ${b.at}, 0, ${b.createdBy}, ${b.t}, ${b.t}
    FROM contacts c WHERE ${who}
      ${b.type === "email" ? sql`AND c.email IS NOT NULL` : sql``}
    ON CONFLICT(idempotency_key) DO NOTHING`);
}
