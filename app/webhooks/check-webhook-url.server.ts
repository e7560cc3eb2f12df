import { AppError } from "~/lib/app-error";

/**
 * SSRF guard for subscription URLs (decision 036). In production a URL must be https and its host must not be a
 * loopback, private, link-local, CGNAT, multicast or metadata address, nor a name that stands for one (localhost,
 * *.local, *.internal). Workers cannot resolve a name before fetching, so a public name that resolves to a private
 * address is not caught here; Cloudflare's edge does not route to private networks, which covers that case in
 * production — the limit is written down in the decision. `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE=1, set by the
 * composition root for local runs and tests) allows http and loopback receivers.
 */
export function checkWebhookUrl(raw: string, opts: { allowPrivate: boolean }): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse("Enter a full URL, like https://example.com/hooks/helio");
  }
  if (url.username || url.password) throw refuse("The URL must not carry a user name or password");
  if (url.protocol !== "https:" && !(opts.allowPrivate && url.protocol === "http:"))
    throw refuse("Webhook URLs must use https");
  if (!opts.allowPrivate && isPrivateHost(url.hostname))
    throw refuse("Webhook URLs must point at a public address, not a private, loopback or metadata one");
  return url;
}

const refuse = (message: string) => new AppError("validation", message, { field: "url" });

/** Whether a URL's hostname (as `URL` parsed it: IPv6 in brackets, IPv4 normalised) names a non-public address. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal"))
    return true;
  if (host === "metadata" || host === "metadata.google.internal") return true;
  if (host.startsWith("[")) return isPrivateV6(host.slice(1, -1));
  const v4 = parseV4(host);
  if (v4) return isPrivateV4(v4);
  return false;
}

function parseV4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

function isPrivateV4([a, b]: number[]): boolean {
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // CGNAT
    (a === 169 && b === 254) || // link-local, cloud metadata (169.254.169.254)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

function isPrivateV6(host: string): boolean {
  const h = host.toLowerCase();
  if (h === "::" || h === "::1") return true;
  // IPv4-mapped (::ffff:a.b.c.d, which URL writes as ::ffff:xxxx:xxxx): judge the IPv4 address inside.
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (mapped) {
    const hi = parseInt(mapped[1], 16);
    const lo = parseInt(mapped[2], 16);
    return isPrivateV4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  if (h.startsWith("::ffff:")) return true;
  const first = parseInt(h.split(":")[0] || "0", 16);
  return (
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xff00) === 0xff00 || // multicast
    h.startsWith("fd00:ec2::") // AWS metadata over IPv6 (inside fc00::/7 anyway)
  );
}
