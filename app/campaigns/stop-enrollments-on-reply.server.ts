import { sql } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";

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
  const t = now.getTime();
  const contacts = sql`(SELECT contact_id FROM messages WHERE id IN (SELECT value FROM json_each(${JSON.stringify(inboundMessageIds)}))
                          AND direction = 'inbound' AND contact_id IS NOT NULL)`;
  // Per row, by primary key: `campaign_id IN (SELECT … WHERE stop_on_reply = 1)` read every campaign each time.
  const stopOnReply = (table: string) =>
    sql`EXISTS (SELECT 1 FROM campaigns c WHERE c.id = ${sql.raw(table)}.campaign_id AND c.stop_on_reply = 1)`;
  // The unary + keeps both statements on the contact's index: on status, SQLite walked every waiting enrolment
  // (issue 22).
  await runBatch(db, [
    db.run(sql`UPDATE campaign_enrollments SET status = 'stopped', stop_reason = ${REPLIED_REASON}, next_run_at = NULL, updated_at = ${t}
               WHERE contact_id IN ${contacts} AND +status IN ('active', 'paused') AND ${stopOnReply("campaign_enrollments")}`),
    // The contact's unsent step messages, through messages_unsent_phone_idx (its numbers' unsent rows, migration 0045).
    db.run(sql`UPDATE messages SET status = 'skipped', error_message = 'Contact replied: the sequence stopped', updated_at = ${t}
               WHERE phone IN (SELECT phone FROM contacts WHERE id IN ${contacts}) AND status IN ('pending', 'queued', 'held')
                 AND contact_id IN ${contacts} AND direction = 'outbound' AND enrollment_id IS NOT NULL AND ${stopOnReply("messages")}`),
  ]);
}
