import { SERVICE_WORKER_SOURCE } from "~/push/service-worker-source";

/**
 * GET /sw.js — the service worker (decision 049), at the site root so its scope is the whole app. `no-cache`: the
 * browser checks for a new version on every navigation (a signed-in request gets `no-store` from the Worker's
 * headers, stricter still). Its own CSP: the worker script runs under the policy it is served with, and it must
 * reach this origin (the Worker's default for non-documents is `default-src 'none'`).
 */
export function loader() {
  return new Response(SERVICE_WORKER_SOURCE, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "no-cache",
      "Service-Worker-Allowed": "/",
      "Content-Security-Policy": "default-src 'self'",
    },
  });
}
