import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

/**
 * Marks the pending auto-responder follow-ups to these numbers skipped: the contact wrote again, or a person
 * replied, so the canned follow-up would talk over the conversation. One bound JSON parameter for any count.
 */
export async function cancelFollowUps(db: Db, phones: string[], now: Date, reason: string) {
  if (!phones.length) return;
  await db.run(sql`
    UPDATE messages SET status = 'skipped', error_message = ${reason}, updated_at = ${now.getTime()}
    WHERE phone IN (SELECT value FROM json_each(${JSON.stringify(phones)})) AND status IN ('pending', 'queued', 'held') AND kind = 'auto_followup'`);
  // The number's unsent messages only (messages_unsent_phone_idx, migration 0045), not its whole history.
}
