import { AppError } from "~/lib/app-error";
import { hmacSha256, timingSafeEqualString } from "~/lib/crypto.server";
import { cookieName, readCookie, serializeCookie } from "./cookies.server";

/**
 * Between the password and the two-factor code the browser holds a short-lived signed cookie, not a session: it
 * names the user and the password attempt, expires in 5 minutes, and is worth nothing without a valid code (which
 * is throttled on the account like the password). `HMAC-SHA256(SESSION_SECRET, "2fa:" + payload)`; no server state.
 */
export const PENDING_SIGN_IN_MS = 5 * 60_000;

export type PendingSignIn = { userId: number; attemptId: number; expiresAt: number };

export const pendingCookieName = (request: Request) => cookieName(request, "helio_2fa");

const sign = (secret: string, payload: string) => hmacSha256(secret, `2fa:${payload}`);

export async function pendingSignInCookie(
  request: Request,
  secret: string | undefined,
  p: PendingSignIn | null,
): Promise<string> {
  const name = pendingCookieName(request);
  if (!p) return serializeCookie(request, name, "", 0);
  if (!secret) throw new AppError("unavailable", "SESSION_SECRET is not configured");
  const payload = `${p.userId}.${p.attemptId}.${p.expiresAt}`;
  return serializeCookie(
    request,
    name,
    `${payload}.${await sign(secret, payload)}`,
    Math.floor(PENDING_SIGN_IN_MS / 1000),
  );
}

/** The pending sign-in this browser holds, or null (absent, forged or expired). */
export async function readPendingSignIn(
  request: Request,
  secret: string | undefined,
  now: Date,
): Promise<PendingSignIn | null> {
  const value = readCookie(request, pendingCookieName(request));
  if (value === null || !secret) return null;
  const m = /^(\d{1,15})\.(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m || !timingSafeEqualString(await sign(secret, `${m[1]}.${m[2]}.${m[3]}`), m[4])) return null;
  const p = { userId: Number(m[1]), attemptId: Number(m[2]), expiresAt: Number(m[3]) };
  return p.expiresAt > now.getTime() ? p : null;
}
