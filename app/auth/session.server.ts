import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { sessions, users, type User } from "~/db/schema";
import { randomToken, sha256Hex } from "~/lib/crypto.server";
import { cookieName, readCookie, serializeCookie } from "./cookies.server";
import { REQUIRE_SUPERUSER_2FA_KEY } from "./two-factor-settings";

// ASVS 5 V7.3 at level 2 with NIST SP 800-63B AAL2 as the reference (decision 002, update 2026-11-26): signed out
// after 30 minutes without a request, and 12 hours after sign-in whatever happens (a working day).
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
const TOUCH_EVERY_MS = 5 * 60 * 1000; // write last_seen_at at most every 5 minutes (effective idle: 25–30 min)

export type SessionUser = Pick<
  User,
  "id" | "email" | "firstName" | "lastName" | "role" | "isActive" | "mustChangePassword"
> & {
  twoFactorEnabled: boolean;
};

/** What the guard gets: the user, the session row's id (to mark "this device"), and whether 2FA must be set up first. */
export type SignedIn = SessionUser & { sessionId: string; mustEnrolTwoFactor: boolean };

export function sessionCookieName(request: Request) {
  return cookieName(request, "helio_session");
}

export function readSessionToken(request: Request): string | null {
  const value = readCookie(request, sessionCookieName(request));
  return value !== null && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
}

export function serializeSessionCookie(request: Request, token: string | null): string {
  const maxAgeS = token ? Math.floor(SESSION_ABSOLUTE_MS / 1000) : 0;
  return serializeCookie(request, sessionCookieName(request), token ?? "", maxAgeS);
}

/** A new random token each login; only its hash is stored. */
export async function newSession(
  userId: number,
  now: Date,
  meta: { ipAddress: string | null; userAgent: string | null },
) {
  const token = randomToken(32);
  const row = {
    id: await sha256Hex(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
    ipAddress: meta.ipAddress,
    userAgent: meta.userAgent,
  };
  return { token, row };
}

/** The user's columns a signed-in caller carries, whether a session cookie or an API key (decision 035) names them. */
export const SIGNED_IN_COLUMNS = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  role: users.role,
  isActive: users.isActive,
  mustChangePassword: users.mustChangePassword,
  totpEnabledAt: users.totpEnabledAt,
};

/**
 * The signed-in user for this token, or null when absent, expired, idle too long or deactivated. One primary-key
 * read (the organisation's "two-factor for superusers" flag rides in it as a subquery on org_settings' key).
 */
export async function findSessionUser(db: Db, token: string | null, now: Date): Promise<SignedIn | null> {
  if (!token) return null;
  const id = await sha256Hex(token);
  const found = await db
    .select({
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      user: SIGNED_IN_COLUMNS,
      requireTwoFactor: sql<
        number | null
      >`(SELECT 1 FROM org_settings WHERE key = ${REQUIRE_SUPERUSER_2FA_KEY} AND value = '1')`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id))
    .get();
  if (!found) return null;
  const t = now.getTime();
  if (found.expiresAt.getTime() <= t || found.lastSeenAt.getTime() + SESSION_IDLE_MS <= t || !found.user.isActive) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  if (t - found.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
  }
  const { totpEnabledAt, ...user } = found.user;
  const twoFactorEnabled = totpEnabledAt !== null;
  return {
    ...user,
    twoFactorEnabled,
    sessionId: id,
    mustEnrolTwoFactor: user.role === "superuser" && !twoFactorEnabled && found.requireTwoFactor === 1,
  };
}

export async function destroySession(db: Db, token: string | null) {
  if (!token) return;
  await db.delete(sessions).where(eq(sessions.id, await sha256Hex(token)));
}

/** Cron housekeeping: drop rows past their absolute expiry or idle too long. */
export async function purgeExpiredSessions(db: Db, now: Date) {
  const t = now.getTime();
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
  await db.delete(sessions).where(and(lt(sessions.lastSeenAt, new Date(t - SESSION_IDLE_MS))));
}
