import { and, eq, notInArray, desc } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { pushSubscriptions } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import type { PushConfig } from "./push-config";
import { MAX_PUSH_SUBSCRIPTIONS, pushEndpointProblem, type PushSubscriptionInput } from "./push-schema";

/**
 * Keeps this browser's subscription for the user (the same endpoint again — a re-subscribe, or the browser passed to
 * another user on a shared phone — takes the row over), then drops the user's oldest past MAX_PUSH_SUBSCRIPTIONS.
 */
export async function savePushSubscription(
  db: Db,
  config: PushConfig | null,
  userId: number,
  input: PushSubscriptionInput,
  device: string,
  now: Date,
) {
  if (!config) throw new AppError("unavailable", "Push notifications are not set up on this server");
  const problem = pushEndpointProblem(input.endpoint, config.allowLoopback);
  if (problem) throw new AppError("validation", problem, { field: "endpoint" });
  const [row] = await db
    .insert(pushSubscriptions)
    .values({ userId, endpoint: input.endpoint, p256dh: input.p256dh, auth: input.auth, device, createdAt: now })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId, p256dh: input.p256dh, auth: input.auth, device, createdAt: now, lastSuccessAt: null },
    })
    .returning({ id: pushSubscriptions.id });
  const keep = db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(desc(pushSubscriptions.id))
    .limit(MAX_PUSH_SUBSCRIPTIONS);
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, keep)));
  return { id: row!.id };
}
