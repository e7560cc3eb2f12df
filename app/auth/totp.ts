/**
 * HOTP (RFC 4226) and TOTP (RFC 6238) over WebCrypto HMAC-SHA-1: 6 digits, 30-second steps, a code accepted for the
 * step before and after the current one (clock drift). Plain functions, no storage: replay is refused by the caller,
 * which remembers the last step accepted (verify-two-factor.server.ts).
 */
export const TOTP_DIGITS = 6;
export const TOTP_STEP_SECONDS = 30;
export const TOTP_WINDOW = 1;
export const TOTP_SECRET_BYTES = 20; // 160 bits, the size RFC 4226 recommends for SHA-1

const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

/** Lenient about case, spaces and padding (people type secrets in); null for any other character. */
export function base32Decode(text: string): Uint8Array<ArrayBuffer> | null {
  const clean = text.toUpperCase().replace(/[\s=-]/g, "");
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const c of clean) {
    const v = B32.indexOf(c);
    if (v < 0) return null;
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

export function newTotpSecret(): string {
  return base32Encode(crypto.getRandomValues(new Uint8Array(TOTP_SECRET_BYTES)));
}

/** RFC 4226 §5.3: HMAC the 8-byte big-endian counter, dynamic truncation, modulo 10^digits. */
export async function hotp(
  key: Uint8Array<ArrayBuffer>,
  counter: number,
  digits = TOTP_DIGITS,
  hash: "SHA-1" | "SHA-256" | "SHA-512" = "SHA-1",
): Promise<string> {
  const msg = new Uint8Array(8);
  new DataView(msg.buffer).setBigUint64(0, BigInt(counter));
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", k, msg));
  const offset = mac[mac.length - 1] & 0x0f;
  const bin = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(bin % 10 ** digits).padStart(digits, "0");
}

export const totpStep = (now: Date | number) =>
  Math.floor((typeof now === "number" ? now : now.getTime()) / 1000 / TOTP_STEP_SECONDS);

/**
 * The step (counter) whose code `code` is, within ±TOTP_WINDOW of now, or null. Every step in the window is computed
 * and compared in constant time, so the answer's timing does not say which one matched.
 */
export async function matchTotp(secret: string, code: string, now: Date): Promise<number | null> {
  const key = base32Decode(secret);
  if (!key || !/^\d{6}$/.test(code)) return null;
  const current = totpStep(now);
  let found: number | null = null;
  for (let d = -TOTP_WINDOW; d <= TOTP_WINDOW; d++) {
    const candidate = await hotp(key, current + d);
    let diff = 0;
    for (let i = 0; i < TOTP_DIGITS; i++) diff |= candidate.charCodeAt(i) ^ code.charCodeAt(i);
    if (diff === 0 && found === null) found = current + d;
  }
  return found;
}

/** The otpauth:// URI authenticator apps read (Key Uri Format): issuer, account, secret and the parameters. */
export function otpauthUri(secret: string, account: string, issuer = "Helio"): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const q = new URLSearchParams({
    secret,
    issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${q.toString()}`;
}
