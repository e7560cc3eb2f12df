import { base64Url, fromBase64Url } from "~/lib/crypto.server";
import type { PushConfig } from "./push-config";

/**
 * Web Push on WebCrypto alone (decision 049): the payload encrypted for the subscriber with the aes128gcm content
 * encoding (RFC 8291 over RFC 8188), the request signed with a VAPID ES256 JWT (RFC 8292), POSTed to the push
 * service's endpoint (RFC 8030). No Node library: the Worker has no Node crypto.
 */

export type PushTarget = { endpoint: string; p256dh: string; auth: string };
export type PushResult =
  | { ok: true; status: number }
  | { ok: false; status: number; gone: boolean; retry: boolean; retryAfterSeconds: number | null };

const enc = new TextEncoder();
/** Record size in the aes128gcm header: one record holds the whole (small) payload. */
const RECORD_SIZE = 4096;
/** The payload's plaintext limit: one record less the delimiter and the AES-GCM tag. */
export const MAX_PAYLOAD_BYTES = RECORD_SIZE - 17;
/** VAPID tokens are valid for 12 hours (RFC 8292 allows at most 24). */
const JWT_LIFETIME_S = 12 * 3600;

const concat = (...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

async function hkdf(salt: BufferSource, ikm: BufferSource, info: BufferSource, bytes: number) {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, bytes * 8));
}

/**
 * RFC 8291 §3–4: an ephemeral ECDH key, the shared secret with the subscriber's key, mixed with its auth secret, then
 * RFC 8188's content key and nonce from a random salt. Returns the whole body: header (salt, rs, keyid) + one record.
 */
export async function encryptPayload(target: Pick<PushTarget, "p256dh" | "auth">, plaintext: Uint8Array<ArrayBuffer>) {
  const uaPublic = fromBase64Url(target.p256dh);
  const authSecret = fromBase64Url(target.auth);
  if (!uaPublic || uaPublic.length !== 65 || !authSecret || authSecret.length !== 16)
    throw new Error("push: malformed subscription keys");
  if (plaintext.length > MAX_PAYLOAD_BYTES) throw new Error("push: payload too large");
  const ua = await crypto.subtle.importKey("raw", uaPublic, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const eph = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const asPublic = new Uint8Array((await crypto.subtle.exportKey("raw", eph.publicKey)) as ArrayBuffer);
  const ecdhSecret = new Uint8Array(
    await crypto.subtle.deriveBits({ name: "ECDH", public: ua } as EcdhKeyDeriveParams, eph.privateKey, 256),
  );
  const keyInfo = concat(enc.encode("WebPush: info\0"), uaPublic, asPublic);
  const ikm = await hkdf(authSecret, ecdhSecret, keyInfo, 32);
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const cek = await hkdf(salt, ikm, enc.encode("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, enc.encode("Content-Encoding: nonce\0"), 12);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["encrypt"]);
  // The last (only) record ends with the 0x02 delimiter, no padding.
  const record = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce }, key, concat(plaintext, new Uint8Array([2]))),
  );
  const header = new Uint8Array(16 + 4 + 1 + asPublic.length);
  header.set(salt, 0);
  new DataView(header.buffer).setUint32(16, RECORD_SIZE);
  header[20] = asPublic.length;
  header.set(asPublic, 21);
  return concat(header, record);
}

/** RFC 8292: `vapid t=<ES256 JWT: aud = the push service's origin, exp, sub>, k=<our public key>`. */
export async function vapidAuthorization(config: PushConfig, endpoint: string, now: Date) {
  const pub = fromBase64Url(config.publicKey)!;
  const jwk: JsonWebKey = {
    kty: "EC",
    crv: "P-256",
    x: base64Url(pub.subarray(1, 33)),
    y: base64Url(pub.subarray(33, 65)),
    d: config.privateKey.replace(/=+$/, ""),
    ext: true,
  };
  const key = await crypto.subtle.importKey("jwk", jwk, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
  const part = (o: object) => base64Url(enc.encode(JSON.stringify(o)));
  const claims = {
    aud: new URL(endpoint).origin,
    exp: Math.floor(now.getTime() / 1000) + JWT_LIFETIME_S,
    sub: config.subject,
  };
  const unsigned = `${part({ typ: "JWT", alg: "ES256" })}.${part(claims)}`;
  // WebCrypto's ECDSA signature is r‖s (64 bytes), the JWS form.
  const sig = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, enc.encode(unsigned)));
  return `vapid t=${unsigned}.${base64Url(sig)}, k=${config.publicKey.replace(/=+$/, "")}`;
}

/** Seconds from a Retry-After header (delta seconds or an HTTP date), or null. */
function retryAfter(value: string | null, now: Date): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/**
 * One push: encrypt, sign, POST. 201 (or any 2xx) is delivered; 404/410 mean the subscription is gone (the caller
 * deletes it); 429 and 5xx and network errors are worth a retry; anything else is a permanent failure.
 */
export async function sendWebPush(
  config: PushConfig,
  target: PushTarget,
  payload: unknown,
  opts: { now: Date; fetch: typeof fetch; ttlSeconds?: number; urgency?: "high" | "normal"; topic?: string },
): Promise<PushResult> {
  const body = await encryptPayload(target, enc.encode(JSON.stringify(payload)));
  const headers: Record<string, string> = {
    Authorization: await vapidAuthorization(config, target.endpoint, opts.now),
    "Content-Encoding": "aes128gcm",
    "Content-Type": "application/octet-stream",
    TTL: String(opts.ttlSeconds ?? 24 * 3600),
    Urgency: opts.urgency ?? "normal",
  };
  // RFC 8030 §5.4: a newer message with the same topic replaces an undelivered one (≤ 32 base64url characters).
  if (opts.topic) headers.Topic = opts.topic.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32);
  let res: Response;
  try {
    res = await opts.fetch(target.endpoint, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
  } catch {
    return { ok: false, status: 0, gone: false, retry: true, retryAfterSeconds: null };
  }
  await res.body?.cancel();
  if (res.ok) return { ok: true, status: res.status };
  const gone = res.status === 404 || res.status === 410;
  const retry = res.status === 429 || res.status >= 500;
  return {
    ok: false,
    status: res.status,
    gone,
    retry,
    retryAfterSeconds: retry ? retryAfter(res.headers.get("Retry-After"), opts.now) : null,
  };
}
