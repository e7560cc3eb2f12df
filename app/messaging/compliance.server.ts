import { sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { runBatch, type Db } from "~/db/client.server";

export type Channel = "sms" | "email";

export const OPTED_OUT_REASON = "Recipient opted out";
export const UNSUBSCRIBED_REASON = "Recipient unsubscribed from email";

/**
 * Staff mail: alerts and escalations to the team's own addresses. Not marketing: the suppression list (a homeowner's
 * unsubscribe, STOP) never skips it, and it carries no unsubscribe link (decision 022).
 */
export const STAFF_MAIL_KINDS: ReadonlySet<string> = new Set(["alert"]);

/** Which of `addresses` are on the do-not-contact list (one statement, one bound JSON array). */
export async function suppressedAmong(db: Db, channel: Channel, addresses: string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const rows = await db.all<{ address: string }>(
    sql`SELECT address FROM suppressions WHERE channel = ${channel} AND address IN (SELECT value FROM json_each(${JSON.stringify(addresses)}))`,
  );
  return new Set(rows.map((r) => r.address));
}

/**
 * Opt-out takes effect at once on every path: the address joins the suppression list, matching contacts
 * are flagged, their campaign enrollments stop, and outbound marketing not yet handed to a provider is
 * skipped. Returned as statements so callers commit them with their own writes. `when` (a SQL condition
 * evaluated inside the batch) makes every statement conditional, e.g. on an inbound keyword being new.
 */
export function suppressStatements(
  db: Db,
  s: { channel: Channel; address: string; reason: string; source?: string | null },
  now: Date,
  when: SQL = sql`1`,
): BatchItem<"sqlite">[] {
  const t = now.getTime();
  const contactMatch = s.channel === "sms" ? sql`phone = ${s.address}` : sql`email = ${s.address}`;
  const skippedReason = s.channel === "sms" ? OPTED_OUT_REASON : UNSUBSCRIBED_REASON;
  return [
    db.run(
      sql`INSERT INTO suppressions (channel, address, reason, source, created_at) SELECT ${s.channel}, ${s.address}, ${s.reason}, ${s.source ?? null}, ${t} WHERE ${when}
          ON CONFLICT(channel, address) DO NOTHING`,
    ),
    s.channel === "sms"
      ? db.run(
          sql`UPDATE contacts SET opted_out_at = coalesce(opted_out_at, ${t}), opted_out_source = coalesce(opted_out_source, ${s.reason}), updated_at = ${t} WHERE ${contactMatch} AND ${when}`,
        )
      : db.run(
          sql`UPDATE contacts SET email_unsubscribed_at = coalesce(email_unsubscribed_at, ${t}), updated_at = ${t} WHERE ${contactMatch} AND ${when}`,
        ),
    // By the contact (its index), not the status index over every waiting enrolment: the unary + (issue 22).
    db.run(
      sql`UPDATE campaign_enrollments SET status = 'stopped', stop_reason = ${s.channel === "sms" ? "opted_out" : "unsubscribed"}, updated_at = ${t}
          WHERE +status IN ('active', 'paused') AND contact_id IN (SELECT id FROM contacts WHERE ${contactMatch}) AND ${when}`,
    ),
    db.run(
      // Not yet handed to the provider, held ones included (a paused campaign's): messages_unsent_phone_idx holds just
      // those, and the WHERE repeats its condition so SQLite uses it (migration 0045).
      sql`UPDATE messages SET status = 'skipped', error_message = ${skippedReason}, updated_at = ${t}
          WHERE status IN ('pending', 'queued', 'held') AND direction = 'outbound' AND kind NOT IN ('compliance', 'alert')
            AND ${s.channel === "sms" ? sql`channel = 'sms' AND phone = ${s.address}` : sql`channel = 'email' AND email = ${s.address}`} AND ${when}`,
    ),
  ];
}

/** START / re-subscribe: lifts the suppression and the contact flag. Stopped enrollments stay stopped. */
export function unsuppressStatements(
  db: Db,
  channel: Channel,
  address: string,
  now: Date,
  when: SQL = sql`1`,
): BatchItem<"sqlite">[] {
  const t = now.getTime();
  return [
    db.run(sql`DELETE FROM suppressions WHERE channel = ${channel} AND address = ${address} AND ${when}`),
    channel === "sms"
      ? db.run(
          sql`UPDATE contacts SET opted_out_at = NULL, opted_out_source = NULL, updated_at = ${t} WHERE phone = ${address} AND ${when}`,
        )
      : db.run(
          sql`UPDATE contacts SET email_unsubscribed_at = NULL, updated_at = ${t} WHERE email = ${address} AND ${when}`,
        ),
  ];
}

export async function suppress(db: Db, s: Parameters<typeof suppressStatements>[1], now: Date) {
  const stmts = suppressStatements(db, s, now);
  await runBatch(db, stmts);
}
