import { fromBase64Url } from "~/lib/crypto.server";

/**
 * The VAPID identity (RFC 8292) Web Push is sent with: VAPID_PUBLIC_KEY (base64url, the uncompressed 65-byte P-256
 * point), VAPID_PRIVATE_KEY (base64url, the 32-byte private scalar) and VAPID_SUBJECT (mailto: or https:). All three
 * or push is off (`npm run vapid:generate` prints a pair). PUSH_ALLOW_LOOPBACK=1 lets subscriptions point at an
 * http loopback push service (local runs and the tests' fake); production leaves it unset.
 */
export type PushConfig = {
  publicKey: string;
  privateKey: string;
  subject: string;
  allowLoopback: boolean;
};

type PushEnv = {
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
  PUSH_ALLOW_LOOPBACK?: string;
};

/** The configuration, or null when push is off (any key missing or malformed: never half on). */
export function pushConfig(env: object): PushConfig | null {
  const e = env as PushEnv;
  const publicKey = e.VAPID_PUBLIC_KEY?.trim() ?? "";
  const privateKey = e.VAPID_PRIVATE_KEY?.trim() ?? "";
  const subject = e.VAPID_SUBJECT?.trim() ?? "";
  const pub = fromBase64Url(publicKey);
  const priv = fromBase64Url(privateKey);
  if (!pub || pub.length !== 65 || pub[0] !== 4 || !priv || priv.length !== 32) return null;
  if (!/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(subject)) return null;
  return { publicKey, privateKey, subject, allowLoopback: e.PUSH_ALLOW_LOOPBACK === "1" };
}
