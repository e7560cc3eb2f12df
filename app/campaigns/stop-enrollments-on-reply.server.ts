import { and, eq, exists, inArray, isNotNull, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { alias } from "drizzle-orm/sqlite-core";
import { inJson } from "~/db/bulk-update.server";
import { runBatch, type Db } from "~/db/client.server";
import { campaignEnrollments, campaigns, contacts, messages } from "~/db/schema";

export const REPLIED_REASON = "replied";

/**
 * Stop on reply (called once per inbound batch from the reply processors): an ordinary reply (not STOP/HELP — those
 * never reach the processors) from an enrolled contact stops that contact's waiting enrolments in every campaign
 * with the switch on, and its step messages not yet handed to the provider are skipped. Enrolments stop first so
 * the skipped messages do not count as a step done. Response counting is the attribution in
 * processInboundMessages (docs/decisions/006-campaign-engine.md). Idempotent: a redelivered job changes nothing.
 */
export async function stopEnrollmentsOnReply(db: Db, inboundMessageIds: number[], now: Date) {
  if (inboundMessageIds.length === 0) return;
  // The repliers: the contacts of these inbound messages (messages_inbound_idx, by the literal direction).
  const repliers = () =>
    db
      .select({ id: messages.contactId })
      .from(messages)
      .where(
        and(
          inJson(messages.id, inboundMessageIds),
          sql`${messages.direction} = 'inbound'`,
          isNotNull(messages.contactId),
        ),
      );
  // Per row, by primary key: `campaign_id IN (SELECT … WHERE stop_on_reply = 1)` read every campaign each time.
  const c = alias(campaigns, "c");
  const stopOnReply = (campaignId: SQLiteColumn) =>
    exists(
      db
        .select({ one: sql`1` })
        .from(c)
        .where(and(eq(c.id, campaignId), sql`${c.stopOnReply} = 1`)),
    );
  const e = campaignEnrollments;
  // The unary + keeps both statements on the contact's index: on status, SQLite walked every waiting enrolment
  // (issue 22).
  await runBatch(db, [
    db
      .update(e)
      .set({ status: "stopped", stopReason: REPLIED_REASON, nextRunAt: null, updatedAt: now })
      .where(
        and(inArray(e.contactId, repliers()), sql`+${e.status} IN ('active', 'paused')`, stopOnReply(e.campaignId)),
      ),
    // The contact's unsent step messages, through messages_unsent_phone_idx (its numbers' unsent rows, migration 0045).
    db
      .update(messages)
      .set({ status: "skipped", errorMessage: "Contact replied: the sequence stopped", updatedAt: now })
      .where(
        and(
          inArray(
            messages.phone,
            db.select({ phone: contacts.phone }).from(contacts).where(inArray(contacts.id, repliers())),
          ),
          sql`${messages.status} IN ('pending', 'queued', 'held')`,
          inArray(messages.contactId, repliers()),
          sql`${messages.direction} = 'outbound'`,
          isNotNull(messages.enrollmentId),
          stopOnReply(messages.campaignId),
        ),
      ),
  ]);
}
