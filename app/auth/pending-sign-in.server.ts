import { AppError } from "~/lib/app-error";
import { hmacSha256 } from "~/lib/crypto.server";
import { cookieName, readSignedCookie, serializeCookie } from "./cookies.server";

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
  const payload = await readSignedCookie(
    request,
    pendingCookieName(request),
    secret,
    /^\d{1,15}\.\d{1,15}\.\d{1,15}$/,
    sign,
  );
  if (payload === null) return null;
  const [userId, attemptId, expiresAt] = payload.split(".").map(Number);
  const p = { userId, attemptId, expiresAt };
  return p.expiresAt > now.getTime() ? p : null;
}
