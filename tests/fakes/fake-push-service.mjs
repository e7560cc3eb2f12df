// A Web Push service on 127.0.0.1 that does what a browser's push service and the browser do with a push (decision
// 049), with Node's own crypto and none of the app's code: it checks the VAPID authorization (RFC 8292: an ES256
// JWT whose signature verifies with the `k` public key, `aud` = this service's origin, `exp` no more than 24 h away,
// a mailto:/https: `sub`) and decrypts the aes128gcm body (RFC 8291/8188) with the subscriber's private key and auth
// secret, recording the plaintext. Each subscription (`/push/<id>`) has its keys, deliveries and injected failures.
// Control API: POST /__control/subscriptions { privateKey (base64url d), publicKey (base64url raw point), auth }
// → { id, endpoint }; POST /__control/subscriptions/<id>/fail-next { n, status, retryAfter };
// POST /__control/subscriptions/<id>/gone (every later push → 410); GET /__control/subscriptions/<id>/deliveries.
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, verify } from "node:crypto";
import { listen, randomHex, sendJson } from "./fake-http.mjs";

const b64u = (s) => Buffer.from(String(s), "base64url");

async function readBytes(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks);
}

/** RFC 8292 §2–3: null when the Authorization header is a valid VAPID token for `origin`, else why not. */
export function checkVapid(header, origin, nowSeconds = Math.floor(Date.now() / 1000)) {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!m) return { problem: "no vapid authorization" };
  const [head, body, sig] = m[1].split(".");
  if (!sig) return { problem: "malformed JWT" };
  const header_ = JSON.parse(b64u(head).toString("utf8"));
  if (header_.alg !== "ES256") return { problem: "alg is not ES256" };
  const claims = JSON.parse(b64u(body).toString("utf8"));
  const k = b64u(m[2]);
  if (k.length !== 65 || k[0] !== 4) return { problem: "k is not a P-256 point" };
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: k.subarray(1, 33).toString("base64url"),
      y: k.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  const ok = verify("sha256", Buffer.from(`${head}.${body}`), { key, dsaEncoding: "ieee-p1363" }, b64u(sig));
  if (!ok) return { problem: "bad JWT signature", claims };
  if (claims.aud !== origin) return { problem: `aud ${claims.aud} is not ${origin}`, claims };
  if (!Number.isInteger(claims.exp) || claims.exp <= nowSeconds) return { problem: "expired", claims };
  if (claims.exp > nowSeconds + 24 * 3600) return { problem: "exp more than 24 hours away", claims };
  if (!/^(mailto:|https:)/.test(claims.sub ?? "")) return { problem: "sub is not mailto: or https:", claims };
  return { problem: null, claims, publicKey: m[2] };
}

/** RFC 8291 §3.4 + RFC 8188: the plaintext of an aes128gcm body for the subscriber (d, raw public key, auth). */
export function decryptAes128gcm(body, sub) {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (record.length > rs) throw new Error("more than one record");
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(b64u(sub.privateKey));
  const ecdhSecret = ecdh.computeSecret(asPublic);
  const uaPublic = b64u(sub.publicKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, b64u(sub.auth), keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("no last-record delimiter");
  return padded.subarray(0, end).toString("utf8");
}

export async function startFakePushService() {
  /** @type {Map<string, { keys: any, deliveries: any[], failures: any[], gone: boolean }>} */
  const subs = new Map();
  const srv = await listen(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const body = await readBytes(req);
    const path = url.pathname;
    if (path === "/__control/subscriptions" && req.method === "POST") {
      const id = randomHex(8);
      subs.set(id, { keys: JSON.parse(body.toString("utf8")), deliveries: [], failures: [], gone: false });
      return sendJson(res, 200, { id, endpoint: `${srv.url}/push/${id}` });
    }
    const control = /^\/__control\/subscriptions\/([0-9a-f]+)\/([a-z-]+)$/.exec(path);
    if (control) {
      const sub = subs.get(control[1]);
      if (!sub) return sendJson(res, 404, { message: "no such subscription" });
      const json = body.length ? JSON.parse(body.toString("utf8")) : {};
      if (control[2] === "fail-next")
        for (let i = 0; i < (json.n ?? 1); i++)
          sub.failures.push({ status: json.status ?? 500, retryAfter: json.retryAfter });
      else if (control[2] === "gone") sub.gone = true;
      else if (control[2] === "deliveries") return sendJson(res, 200, { deliveries: sub.deliveries });
      else return sendJson(res, 404, { message: "unknown control" });
      return sendJson(res, 200, { ok: true });
    }
    const push = /^\/push\/([0-9a-f]+)$/.exec(path);
    const sub = push && subs.get(push[1]);
    if (!sub || req.method !== "POST") return sendJson(res, 404, { message: "not found" });
    if (sub.gone) {
      sub.deliveries.push({ at: Date.now(), answered: 410 });
      return sendJson(res, 410, { message: "subscription expired" });
    }
    const vapid = checkVapid(req.headers.authorization, srv.url);
    let plaintext = null;
    let problem = vapid.problem;
    if (!problem && req.headers["content-encoding"] !== "aes128gcm") problem = "Content-Encoding is not aes128gcm";
    if (!problem && !/^\d+$/.test(String(req.headers.ttl ?? ""))) problem = "no TTL";
    if (!problem) {
      try {
        plaintext = decryptAes128gcm(body, sub.keys);
      } catch (e) {
        problem = `cannot decrypt: ${e.message}`;
      }
    }
    const failure = problem ? null : sub.failures.shift();
    const answered = problem ? 400 : (failure?.status ?? 201);
    sub.deliveries.push({
      at: Date.now(),
      answered,
      problem,
      claims: vapid.claims ?? null,
      plaintext,
      urgency: req.headers.urgency ?? null,
      topic: req.headers.topic ?? null,
      ttl: req.headers.ttl ?? null,
    });
    if (problem) return sendJson(res, 400, { message: problem });
    if (failure) {
      const headers = failure.retryAfter !== undefined ? { "Retry-After": String(failure.retryAfter) } : {};
      return sendJson(res, failure.status, { message: "failing on purpose" }, headers);
    }
    res.writeHead(201, { Location: `${srv.url}/messages/${randomHex(6)}`, "Content-Length": 0 });
    res.end();
  });
  return { url: srv.url, stop: () => srv.stop() };
}
