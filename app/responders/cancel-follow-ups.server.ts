import { and, sql } from "drizzle-orm";
import { inJson } from "~/db/bulk-update.server";
import { messages } from "~/db/schema";
import type { Db } from "~/db/client.server";

/**
 * Marks the pending auto-responder follow-ups to these numbers skipped: the contact wrote again, or a person
 * replied, so the canned follow-up would talk over the conversation. One bound JSON parameter for any count.
 */
export async function cancelFollowUps(db: Db, phones: string[], now: Date, reason: string) {
  if (!phones.length) return;
  await db
    .update(messages)
    .set({ status: "skipped", errorMessage: reason, updatedAt: now })
    .where(
      and(
        inJson(messages.phone, phones),
        sql`${messages.status} IN ('pending', 'queued', 'held')`,
        sql`${messages.kind} = 'auto_followup'`,
      ),
    );
  // The number's unsent messages only (messages_unsent_phone_idx, migration 0045: its WHERE is written literally so
  // the partial index applies), not its whole history.
}
