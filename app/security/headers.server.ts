/** Security headers for every response; documents also get a nonce-based CSP. */
export function applySecurityHeaders(headers: Headers, nonce: string, isDocument: boolean, isHttps = false) {
  if (isHttps) headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  headers.set("X-Content-Type-Options", "nosniff");
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
