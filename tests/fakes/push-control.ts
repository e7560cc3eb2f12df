// Drives tests/fakes/fake-push-service.mjs from workerd tests: a browser's subscription (a real P-256 key pair and a
// 16-byte auth secret, made here with WebCrypto) registered with the fake, which decrypts every push with them; and
// a VAPID identity for the server side.
import { inject } from "vitest";
import { base64Url } from "~/lib/crypto.server";
import type { PushConfig } from "~/push/push-config";
import "./provided-context";

export type FakePushDelivery = {
  at: number;
  answered: number;
  problem: string | null;
  claims: { aud: string; exp: number; sub: string } | null;
  plaintext: string | null;
  urgency: string | null;
  topic: string | null;
  ttl: string | null;
};

async function control<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(inject("fakePushServiceUrl") + "/__control" + path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`fake push control ${path} → ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** A subscribed browser: what PushSubscription.toJSON() would give, and the fake's record of what reached it. */
export async function newPushSubscriber() {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const p256dh = base64Url(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  const auth = base64Url(crypto.getRandomValues(new Uint8Array(16)));
  const { id, endpoint } = await control<{ id: string; endpoint: string }>("/subscriptions", {
    privateKey: jwk.d,
    publicKey: p256dh,
    auth,
  });
  return {
    endpoint,
    p256dh,
    auth,
    /** The next n pushes are answered `status` (with Retry-After when given). */
    failNext: (n: number, status: number, retryAfter?: number) =>
      control(`/subscriptions/${id}/fail-next`, { n, status, retryAfter }),
    /** The browser unsubscribed: every later push is answered 410 Gone. */
    gone: () => control(`/subscriptions/${id}/gone`, {}),
    deliveries: async () =>
      (await control<{ deliveries: FakePushDelivery[] }>(`/subscriptions/${id}/deliveries`)).deliveries,
  };
}

/** A fresh VAPID identity (ES256 key pair) as the server's configuration, loopback push services allowed. */
export async function testVapidConfig(subject = "mailto:ops@helio.test"): Promise<PushConfig> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const publicKey = base64Url(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
  const privateKey = ((await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey).d!;
  return { publicKey, privateKey, subject, allowLoopback: true };
}
