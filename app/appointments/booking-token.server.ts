// The login-free booking link (decision 058): the token names the contact and the day it stops working, with an
// HMAC under the same secret as the unsubscribe links, so it cannot be made for another contact or kept alive.

const enc = new TextEncoder();
const DAY = 86_400_000;
/** How long a booking link works after it was made. */
export const BOOKING_LINK_DAYS = 14;

async function sign(secret: string, payload: string) {
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(`book:${payload}`)));
  let s = "";
  for (const b of mac.slice(0, 18)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export async function bookingToken(secret: string, contactId: number, now: Date) {
  const until = Math.floor(now.getTime() / DAY) + BOOKING_LINK_DAYS;
  return `${contactId}.${until}.${await sign(secret, `${contactId}.${until}`)}`;
}

/** The contact the token was made for, or null: malformed, forged, or past its day. */
export async function verifyBookingToken(secret: string | null, token: string, now: Date): Promise<number | null> {
  const m = /^(\d{1,12})\.(\d{1,8})\.([A-Za-z0-9_-]{24})$/.exec(token);
  if (!m || !secret) return null;
  const [, id, until, sig] = m;
  if (Number(until) < Math.floor(now.getTime() / DAY)) return null;
  const expected = await sign(secret, `${id}.${until}`);
  let diff = expected.length ^ sig.length;
  for (let i = 0; i < Math.min(expected.length, sig.length); i++) diff |= expected.charCodeAt(i) ^ sig.charCodeAt(i);
  return diff === 0 ? Number(id) : null;
}
