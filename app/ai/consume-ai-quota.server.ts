import type { Db } from "~/db/client.server";
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
  const [, counted] = await db.$client.batch([
    db.$client
      .prepare("DELETE FROM ai_usage WHERE user_id = ?1 AND window_start < ?2")
      .bind(userId, windowStart - 60 * WINDOW_MS),
    db.$client
      .prepare(
        "INSERT INTO ai_usage (user_id, window_start, calls) VALUES (?1, ?2, 1) ON CONFLICT (user_id, window_start) DO UPDATE SET calls = calls + 1 RETURNING calls",
      )
      .bind(userId, windowStart),
  ]);
  const calls = Number((counted.results[0] as { calls: number } | undefined)?.calls ?? 1);
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
