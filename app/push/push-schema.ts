import { z } from "zod";
import { fromBase64Url } from "~/lib/crypto.server";

/** A user keeps at most this many subscribed browsers; a new one past it replaces the oldest. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;

const keyOf = (bytes: number, first?: number) =>
  z
    .string()
    .max(200)
    .refine((v) => {
      const b = fromBase64Url(v);
      return !!b && b.length === bytes && (first === undefined || b[0] === first);
    }, "Malformed subscription key");

/** What the browser's PushSubscription.toJSON() gives (the account screen's script posts it as form fields). */
export const pushSubscriptionInput = z.object({
  endpoint: z.string().trim().min(1).max(1000),
  p256dh: keyOf(65, 4),
  auth: keyOf(16),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInput>;

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * A push service endpoint we will POST to: https on a host name (no IP literal, no localhost), the browsers' push
 * services all are. `allowLoopback` (PUSH_ALLOW_LOOPBACK=1) also takes http://127.0.0.1 / localhost, for local runs
 * and the tests' fake push service. Null when acceptable, else why not.
 */
export function pushEndpointProblem(endpoint: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "The push endpoint is not a URL";
  }
  if (url.username || url.password) return "The push endpoint must not carry credentials";
  const host = url.hostname.toLowerCase();
  if (LOOPBACK.has(host)) return allowLoopback ? null : "The push endpoint must be a public https address";
  if (url.protocol !== "https:") return "The push endpoint must be https";
  if (/^[\d.]+$/.test(host) || host.startsWith("[") || !host.includes(".") || host.endsWith(".local"))
    return "The push endpoint must be a public https address";
  return null;
}
