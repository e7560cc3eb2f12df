import { and, eq, ne } from "drizzle-orm";
import { activityRow } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { activityLog, sessions } from "~/db/schema";
import type { Actor } from "~/lib/actor";

/** Signs out every other session of the user; this one stays. Returns how many ended. */
export async function revokeOtherSessions(
  db: Db,
  userId: number,
  keepId: string,
  actor: Actor,
  now: Date,
): Promise<number> {
  const [gone] = (await runBatch(db, [
    db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)))
      .returning({ id: sessions.id }),
    db
      .insert(activityLog)
      .values(activityRow("revoke_other_sessions", { userId: actor.userId, ipAddress: actor.ipAddress, now })),
  ])) as { id: string }[][];
  return gone.length;
}
