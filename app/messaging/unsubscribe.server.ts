// Email unsubscribe links that work without login: the token names the address and carries an HMAC, so it
// cannot be forged for someone else's address and needs no database lookup to verify.

const enc = new TextEncoder();
const b64url = (bytes: Uint8Array) => {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};
const fromB64url = (s: string) => {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
};

async function mac(secret: string, email: string) {
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(`unsubscribe:${email}`)));
}

export async function unsubscribeToken(secret: string, email: string): Promise<string> {
  const address = email.trim().toLowerCase();
  return `${b64url(enc.encode(address))}.${b64url(await mac(secret, address))}`;
}

/** The address the token was made for, or null when it is malformed or forged. */
export async function verifyUnsubscribeToken(secret: string | null, token: string): Promise<string | null> {
  const [addr, sig] = token.split(".");
  if (!addr || !sig || !secret) return null;
  try {
    const email = new TextDecoder().decode(fromB64url(addr));
    const expected = await mac(secret, email);
    const given = fromB64url(sig);
    if (given.length !== expected.length) return null;
    let diff = 0;
    for (let i = 0; i < given.length; i++) diff |= given[i] ^ expected[i];
    return diff === 0 ? email : null;
  } catch {
    return null;
  }
}

/** `page`: the link in the footer (asks, then confirms); `oneClick`: the List-Unsubscribe target (RFC 8058 POST). */
export async function unsubscribeUrls(baseUrl: string, secret: string, email: string) {
  const page = `${baseUrl}/unsubscribe/${await unsubscribeToken(secret, email)}`;
  return { page, oneClick: `${page}/one-click` };
}
