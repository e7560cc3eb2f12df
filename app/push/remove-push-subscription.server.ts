import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { pushSubscriptions } from "~/db/schema";

/** This browser stops getting pushes (its own subscription only: the endpoint must be the user's). */
export async function removePushSubscription(db: Db, userId: number, endpoint: string) {
  const gone = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  return { removed: gone.length };
}
