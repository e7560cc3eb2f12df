import { applySecurityHeaders } from "~/security/headers.server";
import { isCrossOriginUnsafe, trustedOriginsFrom, withoutOriginOnTokenPaths } from "~/security/origin.server";
import { AppError } from "~/lib/app-error";
import { apiErrorResponse } from "~/lib/http.server";
import { isApiPath } from "~/lib/request.server";
import { readSessionToken } from "~/auth/session.server";

/** Edge concerns around Remix: CSRF by Origin, security headers, a per-request CSP nonce. */
export async function handleRequest(
  request: Request,
  env: Env,
  remix: (request: Request, nonce: string) => Promise<Response>,
): Promise<Response> {
  const url = new URL(request.url);
  if (isCrossOriginUnsafe(request, trustedOriginsFrom(env.PUBLIC_BASE_URL))) {
    return isApiPath(url.pathname)
      ? apiErrorResponse(new AppError("forbidden", "Cross-origin request refused"))
      : new Response("Cross-origin request refused", { status: 403, headers: { "Content-Type": "text/plain" } });
  }
  const nonce = crypto.randomUUID().replace(/-/g, "");
  const response = await remix(withoutOriginOnTokenPaths(request), nonce);
  const headers = new Headers(response.headers);
  const isDocument = (headers.get("Content-Type") ?? "").includes("text/html");
  applySecurityHeaders(headers, nonce, isDocument, url.protocol === "https:", readSessionToken(request) !== null);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
