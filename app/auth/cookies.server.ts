import { timingSafeEqualString } from "~/lib/crypto.server";

// The app's own cookies (session, device, pending sign-in) share one naming rule, one reader and one set of attributes.

function isSecure(request: Request) {
  const { protocol, hostname } = new URL(request.url);
  return protocol === "https:" && hostname !== "localhost" && hostname !== "127.0.0.1";
}

/** `__Host-<base>` pins the cookie to this exact origin over HTTPS; plain http on localhost cannot use it. */
export const cookieName = (request: Request, base: string) => (isSecure(request) ? `__Host-${base}` : base);

/** The value of the first cookie called `name` in the request, or null. */
export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return null;
}

/** A Set-Cookie value: whole site, HttpOnly, SameSite=Lax, Secure over HTTPS; `maxAgeS` 0 clears the cookie. */
export function serializeCookie(request: Request, name: string, value: string, maxAgeS: number): string {
  const attrs = [`${name}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAgeS}`];
  if (isSecure(request)) attrs.push("Secure");
  return attrs.join("; ");
}

/**
 * A signed cookie `<payload>.<signature>` (device, pending sign-in): its payload when it has the `payload` form and
 * the signature is `sign(secret, payload)` (compared in constant time), else null — absent, forged or no secret.
 */
export async function readSignedCookie(
  request: Request,
  name: string,
  secret: string | undefined,
  payload: RegExp,
  sign: (secret: string, payload: string) => Promise<string>,
): Promise<string | null> {
  const value = readCookie(request, name);
  if (value === null || !secret) return null;
  const m = /^(.+)\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m || !payload.test(m[1])) return null;
  return timingSafeEqualString(await sign(secret, m[1]), m[2]) ? m[1] : null;
}
