/**
 * API key scopes (issue 26, decision 035). A key acts as its owner (the same role checks) and only where one of its
 * scopes allows: `read` every GET under /api, `contacts:write` the contact writes, `send` the send endpoints,
 * `leads` the lead webhook. Anything else under /api (users, campaigns, settings, sign-out) is for a signed-in
 * person only: a key gets 403 there.
 */
export const API_KEY_SCOPES = ["read", "contacts:write", "send", "leads"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const SCOPE_LABELS: Record<ApiKeyScope, string> = {
  read: "Read (every GET)",
  "contacts:write": "Write contacts",
  send: "Send messages",
  leads: "Post leads (/api/v1/leads)",
};

export const isApiKeyScope = (v: unknown): v is ApiKeyScope => API_KEY_SCOPES.includes(v as ApiKeyScope);

/** The scope a key needs for `method` on `pathname` under /api, or null where keys are not accepted. */
export function scopeFor(method: string, pathname: string): ApiKeyScope | null {
  const m = method.toUpperCase();
  if (pathname === "/api/v1/leads") return "leads";
  if (pathname.startsWith("/api/auth/")) return m === "GET" ? "read" : null;
  if (m === "GET" || m === "HEAD") return "read";
  if (pathname === "/api/contacts" || pathname.startsWith("/api/contacts/")) return "contacts:write";
  if (pathname.startsWith("/api/messages/") || pathname.startsWith("/api/test/")) return "send";
  return null;
}

/** The secret's shape: `helio_` and 43 base64url characters (32 random bytes). */
export const API_KEY_PREFIX = "helio_";
export const API_KEY_RE = /^helio_[A-Za-z0-9_-]{43}$/;
/** How much of the secret is shown to tell keys apart (the prefix and 6 random characters). */
export const VISIBLE_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;

export const EXPIRY_CHOICES = [
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "1 year" },
  { days: 0, label: "Never" },
] as const;

/** Requests per key per minute; past it 429 with Retry-After (the caps' fixed-window counter, decision 021). */
export const API_KEY_RATE_PER_MINUTE = 120;
/** A key's last-used time and its activity entry are written at most once per this interval, not per request. */
export const API_KEY_TOUCH_MS = 60_000;
