import { desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { describeDevice } from "./describe-device.server";
import { SESSION_IDLE_MS } from "./session.server";

export type SessionRow = {
  id: string;
  device: string;
  ipAddress: string | null;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
};

/** "Your sessions": the user's live sessions, newest activity first (sessions_user_id_idx; a handful of rows). */
export async function listSessions(db: Db, userId: number, currentId: string, now: Date): Promise<SessionRow[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.lastSeenAt))
    .limit(50);
  const t = now.getTime();
  return rows
    .filter((r) => r.expiresAt.getTime() > t && r.lastSeenAt.getTime() + SESSION_IDLE_MS > t)
    .map((r) => ({
      id: r.id,
      device: describeDevice(r.userAgent),
      ipAddress: r.ipAddress,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
      current: r.id === currentId,
    }));
}
