import { AppError } from "~/lib/app-error";
import { timingSafeEqualString } from "~/lib/crypto.server";

/**
 * Between the password and the two-factor code the browser holds a short-lived signed cookie, not a session: it
 * names the user and the password attempt, expires in 5 minutes, and is worth nothing without a valid code (which
 * is throttled on the account like the password). `HMAC-SHA256(SESSION_SECRET, "2fa:" + payload)`; no server state.
 */
export const PENDING_SIGN_IN_MS = 5 * 60_000;

export type PendingSignIn = { userId: number; attemptId: number; expiresAt: number };

function isSecure(request: Request) {
  const { protocol, hostname } = new URL(request.url);
  return protocol === "https:" && hostname !== "localhost" && hostname !== "127.0.0.1";
}

export const pendingCookieName = (request: Request) => (isSecure(request) ? "__Host-helio_2fa" : "helio_2fa");

const b64url = (bytes: Uint8Array) => {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

async function sign(secret: string, payload: string) {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return b64url(new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`2fa:${payload}`))));
}

export async function pendingSignInCookie(
  request: Request,
  secret: string | undefined,
  p: PendingSignIn | null,
): Promise<string> {
  const attrs = ["Path=/", "HttpOnly", "SameSite=Lax"];
  if (isSecure(request)) attrs.push("Secure");
  if (!p) return [`${pendingCookieName(request)}=`, ...attrs, "Max-Age=0"].join("; ");
  if (!secret) throw new AppError("unavailable", "SESSION_SECRET is not configured");
  const payload = `${p.userId}.${p.attemptId}.${p.expiresAt}`;
  return [
    `${pendingCookieName(request)}=${payload}.${await sign(secret, payload)}`,
    ...attrs,
    `Max-Age=${Math.floor(PENDING_SIGN_IN_MS / 1000)}`,
  ].join("; ");
}

/** The pending sign-in this browser holds, or null (absent, forged or expired). */
export async function readPendingSignIn(
  request: Request,
  secret: string | undefined,
  now: Date,
): Promise<PendingSignIn | null> {
  const header = request.headers.get("Cookie");
  if (!header || !secret) return null;
  const name = pendingCookieName(request);
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k !== name) continue;
    const m = /^(\d{1,15})\.(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(v.join("="));
    if (!m || !timingSafeEqualString(await sign(secret, `${m[1]}.${m[2]}.${m[3]}`), m[4])) return null;
    const p = { userId: Number(m[1]), attemptId: Number(m[2]), expiresAt: Number(m[3]) };
    return p.expiresAt > now.getTime() ? p : null;
  }
  return null;
}
