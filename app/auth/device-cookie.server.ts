import { hmacSha256, randomToken } from "~/lib/crypto.server";
import { AppError } from "~/lib/app-error";
import { cookieName, readSignedCookie, serializeCookie } from "./cookies.server";

/**
 * OWASP "device cookies" (docs/decisions/002-sessions-and-auth.md): each successful sign-in issues a signed cookie
 * `<nonce>.<HMAC(secret, email, nonce)>`. A client presenting one that is valid for the account it signs in to is
 * throttled on its own budget, apart from unknown clients, so strangers guessing a password cannot lock the owner
 * out. The cookie names no account (the HMAC binds it) and stores nothing server-side; the nonce is the device id
 * recorded with each attempt.
 */
export const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 3600;

export function deviceCookieName(request: Request) {
  return cookieName(request, "helio_device");
}

function requireSecret(secret: string | undefined): string {
  if (!secret) throw new AppError("unavailable", "SESSION_SECRET is not configured");
  return secret;
}

const sign = (secret: string, email: string, nonce: string) =>
  hmacSha256(secret, `device:${email.trim().toLowerCase()}:${nonce}`);

/** The device id of a device cookie valid for `email`, or null (absent, tampered, or issued for another account). */
export async function readDeviceId(
  request: Request,
  secret: string | undefined,
  email: string,
): Promise<string | null> {
  return readSignedCookie(request, deviceCookieName(request), secret, /^[A-Za-z0-9_-]{16,64}$/, (key, nonce) =>
    sign(key, email, nonce),
  );
}

/** A fresh device cookie for `email` (Set-Cookie value), issued at each successful sign-in. */
export async function issueDeviceCookie(request: Request, secret: string | undefined, email: string): Promise<string> {
  const nonce = randomToken(16);
  const value = `${nonce}.${await sign(requireSecret(secret), email, nonce)}`;
  return serializeCookie(request, deviceCookieName(request), value, DEVICE_COOKIE_MAX_AGE_S);
}
