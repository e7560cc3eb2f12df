import { and, eq, inArray, notInArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { inJson } from "~/db/bulk-update.server";
import { runBatch, type Db } from "~/db/client.server";
import { campaignEnrollments } from "~/db/schema/campaign-enrollments";
import { contacts } from "~/db/schema/contacts";
import { messages } from "~/db/schema/messages";
import { suppressions } from "~/db/schema/suppressions";
import { INFORMATIONAL_KINDS, type OptOutScope } from "./stop-scope";

export type Channel = "sms" | "email";

export const OPTED_OUT_REASON = "Recipient opted out";
export const UNSUBSCRIBED_REASON = "Recipient unsubscribed from email";
/** A campaign, broadcast, Quick Send or follow-up text to a contact who agreed to appointment texts only. */
export const NO_MARKETING_CONSENT_REASON = "No marketing consent: the contact agreed to appointment texts only";

/**
 * Staff mail: alerts and escalations to the team's own addresses. Not marketing: the suppression list (a homeowner's
 * unsubscribe, STOP) never skips it, and it carries no unsubscribe link (decision 022).
 */
export const STAFF_MAIL_KINDS: ReadonlySet<string> = new Set(["alert"]);

/** Which of `addresses` are on the do-not-contact list (one statement, one bound JSON array). */
export async function suppressedAmong(db: Db, channel: Channel, addresses: string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const rows = await db
    .select({ address: suppressions.address })
    .from(suppressions)
    .where(and(eq(suppressions.channel, channel), inJson(suppressions.address, addresses)));
  return new Set(rows.map((r) => r.address));
}

/**
 * Opt-out takes effect at once on every path: the address joins the suppression list, matching contacts
 * are flagged, their campaign enrollments stop, and outbound marketing not yet handed to a provider is
 * skipped. Returned as statements so callers commit them with their own writes. `when` (a SQL condition
 * evaluated inside the batch) makes every statement conditional, e.g. on an inbound keyword being new.
 *
 * `scope` (SMS, decision 072): "marketing" leaves the number's appointment texts going (stop-scope.ts); a later
 * opt-out of "all" widens an earlier marketing one (its reason and source stay the first opt-out's).
 */
export function suppressStatements(
  db: Db,
  s: { channel: Channel; address: string; reason: string; source?: string | null; scope?: OptOutScope },
  now: Date,
  when: SQL = sql`1`,
): BatchItem<"sqlite">[] {
  const t = now.getTime();
  const scope: OptOutScope = s.channel === "sms" ? (s.scope ?? "all") : "all";
  const contactMatch = s.channel === "sms" ? eq(contacts.phone, s.address) : eq(contacts.email, s.address);
  const skippedReason = s.channel === "sms" ? OPTED_OUT_REASON : UNSUBSCRIBED_REASON;
  const widening = sql`${contacts.optedOutAt} IS NOT NULL AND ${contacts.optedOutScope} = 'marketing' AND ${scope} = 'all'`;
  return [
    // raw-sql: guarded-insert
    db.run(
      sql`INSERT INTO suppressions (channel, address, reason, source, scope, created_at) SELECT ${s.channel}, ${s.address}, ${s.reason}, ${s.source ?? null}, ${scope}, ${t} WHERE ${when}
          ON CONFLICT(channel, address) DO UPDATE SET scope = 'all' WHERE suppressions.scope <> 'all' AND excluded.scope = 'all'`,
    ),
    s.channel === "sms"
      ? db
          .update(contacts)
          .set({
            optedOutAt: sql`coalesce(${contacts.optedOutAt}, ${t})`,
            optedOutSource: sql`CASE WHEN ${widening} THEN ${s.reason} ELSE coalesce(${contacts.optedOutSource}, ${s.reason}) END`,
            optedOutScope: sql`CASE WHEN ${scope} = 'all' THEN 'all' WHEN ${contacts.optedOutAt} IS NULL THEN 'marketing'
              ELSE coalesce(${contacts.optedOutScope}, 'all') END`,
            updatedAt: now,
          })
          .where(and(contactMatch, when))
      : db
          .update(contacts)
          .set({ emailUnsubscribedAt: sql`coalesce(${contacts.emailUnsubscribedAt}, ${t})`, updatedAt: now })
          .where(and(contactMatch, when)),
    // By the contact (its index), not the status index over every waiting enrolment: the unary + (issue 22).
    db
      .update(campaignEnrollments)
      .set({ status: "stopped", stopReason: s.channel === "sms" ? "opted_out" : "unsubscribed", updatedAt: now })
      .where(
        and(
          sql`+${campaignEnrollments.status} IN ('active', 'paused')`,
          inArray(campaignEnrollments.contactId, db.select({ id: contacts.id }).from(contacts).where(contactMatch)),
          when,
        ),
      ),
    // Not yet handed to the provider, held ones included (a paused campaign's): messages_unsent_phone_idx holds just
    // those, and the WHERE repeats its condition literally so SQLite uses it (migration 0045).
    db
      .update(messages)
      .set({ status: "skipped", errorMessage: skippedReason, updatedAt: now })
      .where(
        and(
          sql`${messages.status} IN ('pending', 'queued', 'held')`,
          sql`${messages.direction} = 'outbound'`,
          sql`${messages.kind} NOT IN ('compliance', 'alert')`,
          // Appointment texts stay when the opt-out was of marketing only.
          scope === "marketing" ? notInArray(messages.kind, [...INFORMATIONAL_KINDS]) : undefined,
          s.channel === "sms"
            ? and(sql`${messages.channel} = 'sms'`, eq(messages.phone, s.address))
            : and(sql`${messages.channel} = 'email'`, eq(messages.email, s.address)),
          when,
        ),
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
  return [
    db.delete(suppressions).where(and(eq(suppressions.channel, channel), eq(suppressions.address, address), when)),
    channel === "sms"
      ? db
          .update(contacts)
          .set({ optedOutAt: null, optedOutSource: null, optedOutScope: null, updatedAt: now })
          .where(and(eq(contacts.phone, address), when))
      : db
          .update(contacts)
          .set({ emailUnsubscribedAt: null, updatedAt: now })
          .where(and(eq(contacts.email, address), when)),
  ];
}

export async function suppress(db: Db, s: Parameters<typeof suppressStatements>[1], now: Date) {
  const stmts = suppressStatements(db, s, now);
  await runBatch(db, stmts);
}
