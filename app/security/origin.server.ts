const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Paths called by other servers (signed, cookie-less), not by browsers. */
const CROSS_SITE_ALLOWED = [/^\/webhooks\//, /^\/unsubscribe(\/|$)/];

/**
 * CSRF defence by origin: an unsafe request whose Origin (or, without one, Sec-Fetch-Site)
 * says it came from another site is refused. Requests with neither header (curl, server to
 * server) carry no ambient browser credentials of a victim, so they pass to normal auth.
 */
export function isCrossOriginUnsafe(request: Request, trustedOrigins: string[]): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const url = new URL(request.url);
  if (CROSS_SITE_ALLOWED.some((re) => re.test(url.pathname))) return false;
  const origin = request.headers.get("Origin");
  if (origin !== null) {
    return !(origin === url.origin || trustedOrigins.includes(origin));
  }
  const site = request.headers.get("Sec-Fetch-Site");
  return site === "cross-site" || site === "same-site";
}

export function trustedOriginsFrom(publicBaseUrl: string | undefined): string[] {
  if (!publicBaseUrl) return [];
  try {
    return [new URL(publicBaseUrl).origin];
  } catch {
    return [];
  }
}

/**
 * Paths authorised by a signature or token, never by cookies, lose their Origin header before Remix sees them:
 * Remix's own document-action origin check would otherwise throw (a 500) on a mail client's cross-site RFC 8058
 * POST to /unsubscribe/:token, which is exactly the one-click unsubscribe it should perform.
 */
export function withoutOriginOnTokenPaths(request: Request): Request {
  if (SAFE_METHODS.has(request.method) || !request.headers.has("Origin")) return request;
  if (!CROSS_SITE_ALLOWED.some((re) => re.test(new URL(request.url).pathname))) return request;
  const headers = new Headers(request.headers);
  headers.delete("Origin");
  return new Request(request, { headers });
}
