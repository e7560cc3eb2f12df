import { randomToken, timingSafeEqualString } from "~/lib/crypto.server";
import { AppError } from "~/lib/app-error";

/**
 * OWASP "device cookies" (docs/decisions/002-sessions-and-auth.md): each successful sign-in issues a signed cookie
 * `<nonce>.<HMAC(secret, email, nonce)>`. A client presenting one that is valid for the account it signs in to is
 * throttled on its own budget, apart from unknown clients, so strangers guessing a password cannot lock the owner
 * out. The cookie names no account (the HMAC binds it) and stores nothing server-side; the nonce is the device id
 * recorded with each attempt.
 */
export const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 3600;

function isSecure(request: Request) {
  const { protocol, hostname } = new URL(request.url);
  return protocol === "https:" && hostname !== "localhost" && hostname !== "127.0.0.1";
}

export function deviceCookieName(request: Request) {
  return isSecure(request) ? "__Host-helio_device" : "helio_device";
}

function requireSecret(secret: string | undefined): string {
  if (!secret) throw new AppError("unavailable", "SESSION_SECRET is not configured");
  return secret;
}

async function sign(secret: string, email: string, nonce: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign(
    "HMAC",
    key,
    new TextEncoder().encode(`device:${email.trim().toLowerCase()}:${nonce}`),
  );
  let s = "";
  for (const b of new Uint8Array(mac)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The device id of a device cookie valid for `email`, or null (absent, tampered, or issued for another account). */
export async function readDeviceId(
  request: Request,
  secret: string | undefined,
  email: string,
): Promise<string | null> {
  const header = request.headers.get("Cookie");
  if (!header || !secret) return null;
  const name = deviceCookieName(request);
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k !== name) continue;
    const m = /^([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{43})$/.exec(v.join("="));
    if (!m) return null;
    return timingSafeEqualString(await sign(secret, email, m[1]), m[2]) ? m[1] : null;
  }
  return null;
}

/** A fresh device cookie for `email` (Set-Cookie value), issued at each successful sign-in. */
export async function issueDeviceCookie(request: Request, secret: string | undefined, email: string): Promise<string> {
  const nonce = randomToken(16);
  const value = `${nonce}.${await sign(requireSecret(secret), email, nonce)}`;
  const attrs = [
    `${deviceCookieName(request)}=${value}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${DEVICE_COOKIE_MAX_AGE_S}`,
  ];
  if (isSecure(request)) attrs.push("Secure");
  return attrs.join("; ");
}
