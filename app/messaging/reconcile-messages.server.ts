import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import type { SmsProvider } from "./providers/provider";
import type { JobQueue } from "~/lib/job-queue";
import { sendJobs } from "./enqueue-due-messages.server";
import { mapProviderStatus } from "./record-status.server";

export const STUCK_SENDING_MS = 5 * 60_000;
export const STUCK_QUEUED_MS = 15 * 60_000;

/**
 * Cron: rows whose fate is unknown.
 * - `sending` for 5+ minutes: the worker died between claiming and recording. Ask the provider whether it
 *   has the message (same number and text, sent after the claim): if so record it; only if it does not is
 *   the row queued again. Email has no lookup, so an unknown email is failed rather than risk a duplicate.
 * - `queued` untouched for 15+ minutes: its queue message was lost; enqueue again (the claim makes a
 *   duplicate queue message harmless).
 */
export async function reconcileMessages(db: Db, queue: JobQueue, sms: SmsProvider, now: Date) {
  const t = now.getTime();
  const stuck = await db.all<{
    id: number;
    channel: string;
    phone: string | null;
    content: string;
    claimed_at: number;
  }>(sql`
    SELECT id, channel, phone, content, claimed_at FROM messages
    WHERE status = 'sending' AND claimed_at < ${t - STUCK_SENDING_MS} ORDER BY claimed_at LIMIT 50`);
  let recovered = 0;
  let requeued = 0;
  for (const row of stuck) {
    if (row.channel !== "sms" || !row.phone) {
      await db.run(sql`UPDATE messages SET status = 'failed', error_message = 'Outcome unknown after an interruption; not resent to avoid a duplicate', updated_at = ${t}
                       WHERE id = ${row.id} AND status = 'sending'`);
      continue;
    }
    const found = (await sms.findSent(row.phone, new Date(row.claimed_at - 60_000))).find(
      (m) => m.body === row.content,
    );
    if (found) {
      await db.run(sql`UPDATE messages SET status = ${mapProviderStatus(found.status) ?? "sent"}, twilio_sid = ${found.sid}, provider = ${sms.name},
                         from_address = ${sms.sender}, sent_at = coalesce(sent_at, ${found.dateCreated?.getTime() ?? t}), updated_at = ${t}
                       WHERE id = ${row.id} AND status = 'sending'`);
      recovered++;
    } else {
      await db.run(
        sql`UPDATE messages SET status = 'queued', updated_at = ${t} WHERE id = ${row.id} AND status = 'sending'`,
      );
      await sendJobs(queue, [row.id]);
      requeued++;
    }
  }
  const lost = await db.all<{ id: number }>(sql`
    UPDATE messages SET updated_at = ${t}
    WHERE id IN (SELECT id FROM messages WHERE status = 'queued' AND scheduled_at < ${t - STUCK_QUEUED_MS} AND updated_at < ${t - STUCK_QUEUED_MS} LIMIT 1000)
    RETURNING id`);
  await sendJobs(
    queue,
    lost.map((l) => l.id),
  );
  return { recovered, requeued: requeued + lost.length };
}
