import { and, eq } from "drizzle-orm";
import { activityRow } from "~/activity/log-activity.server";
import type { Db } from "~/db/client.server";
import { activityLog, sessions } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { AppError } from "~/lib/app-error";

/** Signs out one of the user's own sessions (never someone else's: the row must be theirs). */
export async function revokeSession(db: Db, userId: number, sessionId: string, actor: Actor, now: Date) {
  const gone = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  if (!gone.length) throw new AppError("not_found", "That session has already ended");
  await db
    .insert(activityLog)
    .values(activityRow("revoke_session", { userId: actor.userId, ipAddress: actor.ipAddress, now }));
}
