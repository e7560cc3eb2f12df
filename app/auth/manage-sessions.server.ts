import { and, desc, eq, ne } from "drizzle-orm";
import { activityRow } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { activityLog, sessions } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { SESSION_IDLE_MS } from "./session.server";
import type { Actor } from "~/lib/actor";

/** A browser name and platform from a User-Agent, for people to recognise their devices (not for any decision). */
export function describeDevice(ua: string | null): string {
  if (!ua) return "Unknown device";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /OPR\//.test(ua)
      ? "Opera"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Chrom(e|ium)\//.test(ua)
          ? "Chrome"
          : /Safari\//.test(ua)
            ? "Safari"
            : /curl|node|undici/i.test(ua)
              ? "Script"
              : "Browser";
  const os = /iPhone|iPad/.test(ua)
    ? "iOS"
    : /Android/.test(ua)
      ? "Android"
      : /Windows/.test(ua)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : null;
  return os ? `${browser} on ${os}` : browser;
}

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
