import { and, asc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { messages } from "~/db/schema";
import { inJson } from "~/db/bulk-update.server";
import type { SmsProvider } from "./providers/provider";
import type { JobQueue } from "~/lib/job-queue";
import { sendJobs } from "./enqueue-due-messages.server";
import { isSentTextOf } from "./tracked-links";
import { mapProviderStatus } from "./record-status.server";
import { runFinalFailureHooks, type FinalFailureHook } from "./pipeline-hooks";

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
export async function reconcileMessages(
  db: Db,
  queue: JobQueue,
  sms: SmsProvider,
  now: Date,
  finalFailure: readonly FinalFailureHook[] = [],
) {
  const t = now.getTime();
  // Status literals: messages_due_idx is partial and a bound status cannot use it.
  const stillSending = (id: number) => and(eq(messages.id, id), sql`${messages.status} = 'sending'`);
  const stuck = await db
    .select({
      id: messages.id,
      channel: messages.channel,
      phone: messages.phone,
      content: messages.content,
      claimedAt: messages.claimedAt,
    })
    .from(messages)
    .where(and(sql`${messages.status} = 'sending'`, lt(messages.claimedAt, new Date(t - STUCK_SENDING_MS))))
    .orderBy(asc(messages.claimedAt))
    .limit(50);
  let recovered = 0;
  let requeued = 0;
  const failed: number[] = [];
  for (const row of stuck) {
    if (row.channel !== "sms" || !row.phone) {
      const [gone] = await db
        .update(messages)
        .set({
          status: "failed",
          errorMessage: "Outcome unknown after an interruption; not resent to avoid a duplicate",
          updatedAt: now,
        })
        .where(stillSending(row.id))
        .returning({ id: messages.id });
      if (gone) failed.push(gone.id);
      continue;
    }
    const found = (await sms.findSent(row.phone, new Date(row.claimedAt!.getTime() - 60_000))).find(
      // A tracked text went out with its links as codes (decision 068).
      (m) => isSentTextOf(m.body, row.content, row.id),
    );
    if (found) {
      await db
        .update(messages)
        .set({
          status: mapProviderStatus(found.status) ?? "sent",
          twilioSid: found.sid,
          provider: sms.name,
          // The claim wrote the message's own sender (decision 045); the default only for a row claimed before that.
          fromAddress: sql`coalesce(${messages.fromAddress}, ${sms.sender})`,
          sentAt: sql`coalesce(${messages.sentAt}, ${found.dateCreated?.getTime() ?? t})`,
          updatedAt: now,
        })
        .where(stillSending(row.id));
      recovered++;
    } else {
      await db.update(messages).set({ status: "queued", updatedAt: now }).where(stillSending(row.id));
      await sendJobs(queue, [row.id]);
      requeued++;
    }
  }
  const before = new Date(t - STUCK_QUEUED_MS);
  const stuckQueued = and(
    sql`${messages.status} = 'queued'`,
    lt(messages.scheduledAt, before),
    lt(messages.updatedAt, before),
  );
  // The ids first, then the update by key, the same test again (a message queued meanwhile is left alone): an
  // UPDATE … IN (subquery) reads 4 rows on a tick with nothing stuck, the bare SELECT 1 (issue 22: idle ticks).
  const lostIds = (await db.select({ id: messages.id }).from(messages).where(stuckQueued).limit(1000)).map((r) => r.id);
  const lost = lostIds.length
    ? await db
        .update(messages)
        .set({ updatedAt: now })
        .where(and(inJson(messages.id, lostIds), stuckQueued))
        .returning({ id: messages.id })
    : [];
  await sendJobs(
    queue,
    lost.map((l) => l.id),
  );
  await runFinalFailureHooks(finalFailure, { db, queue, now }, failed);
  return { recovered, requeued: requeued + lost.length };
}
