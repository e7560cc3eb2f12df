import { and, eq, lt, sql } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { aiUsage } from "~/db/schema";
import { AppError } from "~/lib/app-error";

export const AI_CALLS_PER_MINUTE = 20;
const WINDOW_MS = 60_000;

/**
 * Cost control: counts one AI call for the user in the current minute and refuses (429) past the limit. One UPSERT
 * per call, atomic in D1; the user's windows older than an hour are deleted in the same batch.
 */
export async function consumeAiQuota(
  db: Db,
  userId: number,
  now: Date,
  limit = AI_CALLS_PER_MINUTE,
): Promise<{ calls: number; limit: number }> {
  const windowStart = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
  const [, counted] = (await runBatch(db, [
    db
      .delete(aiUsage)
      .where(and(eq(aiUsage.userId, userId), lt(aiUsage.windowStart, new Date(windowStart - 60 * WINDOW_MS)))),
    db
      .insert(aiUsage)
      .values({ userId, windowStart: new Date(windowStart), calls: 1 })
      .onConflictDoUpdate({
        target: [aiUsage.userId, aiUsage.windowStart],
        set: { calls: sql`${aiUsage.calls} + 1` },
      })
      .returning({ calls: aiUsage.calls }),
  ])) as [unknown, { calls: number }[]];
  const calls = Number(counted[0]?.calls ?? 1);
  if (calls > limit) {
    const retryAfter = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now.getTime()) / 1000));
    throw new AppError(
      "rate_limited",
      `AI request limit reached (${limit} per minute). Please wait ${retryAfter} seconds and try again.`,
      {
        retryAfter,
        title: "Too many AI requests",
      },
    );
  }
  return { calls, limit };
}
