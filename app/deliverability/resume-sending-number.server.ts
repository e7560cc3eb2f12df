import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import type { DomainContext } from "~/db/domain-context";
import { messages, senderPacing } from "~/db/schema";
import { notFound } from "~/lib/app-error";
import { enqueueDueMessages } from "~/messaging/enqueue-due-messages.server";
import { senderPausedNote } from "~/messaging/sender-pause";

/** Held texts released per statement, and per request or job run before the rest goes to a job. */
export const RELEASE_CHUNK = 1000;
const CHUNKS_PER_RUN = 5;

/**
 * A superuser resumes a paused sending number (decision 065): the pause is cleared and logged with who did it, and
 * its held marketing texts go back to the send queue — the first chunks now, the rest by a job. Not paused: not found.
 */
export async function resumeSendingNumber(
  ctx: DomainContext,
  sender: string,
  actor: { userId: number; ipAddress: string | null },
) {
  const { db, queue, now } = ctx;
  const resumed = await db
    .update(senderPacing)
    .set({ marketingPausedAt: null, marketingPausedReason: null })
    .where(and(eq(senderPacing.sender, sender), isNotNull(senderPacing.marketingPausedAt)))
    .returning({ sender: senderPacing.sender });
  if (!resumed.length) throw notFound("That number is not paused");
  await logActivity(db, "sending_number_resumed", {
    ...actor,
    details: { sender },
    now,
  });
  const released = await releaseHeldSends(ctx, sender);
  if (released.more) await queue.send({ v: 1, type: "release-held-sends", sender });
  return released;
}

/**
 * Up to CHUNKS_PER_RUN chunks of the number's held texts back to `pending`, due now, and onto the queue. They are
 * found by their hold note among the held rows (messages_held_idx); a number paused again meanwhile holds them again
 * at the consumer. `more`: a chunk came back full, so the caller runs again.
 */
export async function releaseHeldSends(
  { db, queue, now }: DomainContext,
  sender: string,
): Promise<{ released: number; more: boolean }> {
  const note = senderPausedNote(sender);
  let released = 0;
  for (let i = 0; i < CHUNKS_PER_RUN; i++) {
    const rows = await db
      .update(messages)
      .set({ status: "pending", errorMessage: null, scheduledAt: now, updatedAt: now })
      .where(
        inArray(
          messages.id,
          db
            .select({ id: messages.id })
            .from(messages)
            // The literal status: messages_held_idx is partial and a bound status cannot use it.
            .where(and(sql`${messages.status} = 'held'`, eq(messages.errorMessage, note)))
            .limit(RELEASE_CHUNK),
        ),
      )
      .returning({ id: messages.id });
    await enqueueDueMessages(
      db,
      queue,
      now,
      rows.map((r) => r.id),
    );
    released += rows.length;
    if (rows.length < RELEASE_CHUNK) return { released, more: false };
  }
  return { released, more: true };
}
