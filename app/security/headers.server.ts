/**
 * Security headers for every response; documents also get a nonce-based CSP. Caching (ASVS 5 V14.3): every
 * response to a request that carries a session cookie — documents, `?_data` loader data, /api JSON, downloads — is
 * `no-store`, whatever the route set, so no browser or proxy keeps signed-in data; any other response without a
 * Cache-Control of its own is `no-store` too (the Worker only answers dynamic requests: static files are served by
 * the assets layer before it).
 */
export function applySecurityHeaders(
  headers: Headers,
  nonce: string,
  isDocument: boolean,
  isHttps = false,
  authenticated = false,
) {
  if (authenticated || !headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  if (isHttps) headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  headers.set("X-Content-Type-Options", "nosniff");
  // A route may only make it stricter: a tracked link's redirect sends no referrer (its code names a homeowner's text).
  if (headers.get("Referrer-Policy") !== "no-referrer")
    headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  const csp = isDocument
    ? [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}'`,
        // Radix positions toasts with inline style attributes.
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join("; ")
    : "default-src 'none'; frame-ancestors 'none'";
  if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", csp);
}
