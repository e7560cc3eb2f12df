import { AppError } from "~/lib/app-error";

// PUBLIC_BASE_URL is where Twilio calls back (status callbacks, inbound SMS) and where unsubscribe and alert links
// point. Twilio signs the URL it called, so a wrong value does not fail loudly by itself: every webhook is a 403 and
// every unsubscribe link points somewhere nobody can reach. With real credentials present, a value that cannot be this
// app's public address refuses sends and webhooks with one message instead (decision 018). Without credentials the
// local outbox runs on any value, loopback included.

export const PUBLIC_URL_NOT_SET =
  "PUBLIC_BASE_URL is not set to this app's public https address, so Twilio callbacks and unsubscribe links cannot work. Set it with wrangler.";
/** How to set it, for the screens and the README (the message itself stays one sentence a toast can show). */
export const PUBLIC_URL_HOW =
  "npx wrangler secret put PUBLIC_BASE_URL (e.g. https://helio.example.com), or PUBLIC_BASE_URL under [vars] in wrangler.toml";

type PublicUrlEnv = {
  PUBLIC_BASE_URL?: string;
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  SENDGRID_API_KEY?: string;
};

const filled = (v: unknown) => typeof v === "string" && v.trim() !== "";

/** The configured public origin without trailing slashes; "" when unset (links are then relative: outbox only). */
export function publicBaseUrlOf(env: Pick<PublicUrlEnv, "PUBLIC_BASE_URL">): string {
  return (env.PUBLIC_BASE_URL ?? "").trim().replace(/\/+$/, "");
}

/** Twilio or SendGrid credentials are present: messages and callbacks would involve a real provider. */
export function hasProviderCredentials(env: PublicUrlEnv): boolean {
  return filled(env.TWILIO_ACCOUNT_SID) || filled(env.TWILIO_AUTH_TOKEN) || filled(env.SENDGRID_API_KEY);
}

const PRIVATE_NAMES = /(^|\.)(localhost|local|internal|home\.arpa)$/;

function isPrivateIPv4(host: string): boolean {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 || // loopback
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

function isPrivateIPv6(host: string): boolean {
  if (!host.startsWith("[")) return false;
  const h = host.slice(1, -1).toLowerCase();
  if (h === "::" || h === "::1") return true;
  // IPv4-mapped (the URL parser writes ::ffff:7f00:1 for ::ffff:127.0.0.1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
    return isPrivateIPv4(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return /^f[cd][0-9a-f]{0,2}:/.test(h) || /^fe[89ab][0-9a-f]?:/.test(h); // unique local fc00::/7, link-local fe80::/10
}

/** An https URL whose host could be reached from the internet (not loopback, private, link-local or a local name). */
export function isPublicHttpsUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" || url.username || url.password) return false;
  // The URL parser has already turned 0x7f.1, 2130706433 and friends into dotted IPv4.
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  return host !== "" && !PRIVATE_NAMES.test(host) && !isPrivateIPv4(host) && !isPrivateIPv6(host);
}

/**
 * Why sends and Twilio webhooks must refuse, or null when they may go on: credentials are present and PUBLIC_BASE_URL
 * is missing, not https, or loopback/private. Without credentials (the local outbox) nothing is refused.
 */
export function publicUrlProblem(env: PublicUrlEnv): string | null {
  if (!hasProviderCredentials(env)) return null;
  return isPublicHttpsUrl(publicBaseUrlOf(env)) ? null : PUBLIC_URL_NOT_SET;
}

/** For the producers ("Send" actions and send endpoints): 503 `unavailable` with the message, before anything is written. */
export function requirePublicUrl(env: PublicUrlEnv): void {
  const problem = publicUrlProblem(env);
  if (problem) throw new AppError("unavailable", problem, { title: "Sending is not configured", retryAfter: 300 });
}
