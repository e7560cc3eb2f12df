import { applySecurityHeaders } from "~/security/headers.server";
import { isCrossOriginUnsafe, trustedOriginsFrom, withoutOriginOnTokenPaths } from "~/security/origin.server";
import { AppError } from "~/lib/app-error";
import { apiErrorResponse } from "~/http/http.server";
import { isApiPath } from "~/lib/request.server";
import { readSessionToken } from "~/auth/session.server";
import { limitRequestBody, requestBodyLimit } from "~/http/read-body.server";

/** Edge concerns around Remix: CSRF by Origin, security headers, a per-request CSP nonce. */
export async function handleRequest(
  request: Request,
  env: Env,
  remix: (request: Request, nonce: string) => Promise<Response>,
): Promise<Response> {
  const url = new URL(request.url);
  // A Bearer request with no cookie at all carries no ambient browser credential: an API key is sent on purpose, so
  // the Origin check does not apply (a no-code tool's browser step). With any cookie, today's check stands.
  const bearerOnly = /^Bearer\s/i.test(request.headers.get("Authorization") ?? "") && !request.headers.has("Cookie");
  if (!bearerOnly && isCrossOriginUnsafe(request, trustedOriginsFrom(env.PUBLIC_BASE_URL))) {
    return isApiPath(url.pathname)
      ? apiErrorResponse(new AppError("forbidden", "Cross-origin request refused"))
      : new Response("Cross-origin request refused", { status: 403, headers: { "Content-Type": "text/plain" } });
  }
  // Every body is capped before any route reads it (uploads, bulk JSON and webhooks by their own limits).
  const bodyLimit = requestBodyLimit(url.pathname);
  let limited: ReturnType<typeof limitRequestBody>;
  try {
    limited = limitRequestBody(request, bodyLimit);
  } catch (err) {
    return tooLarge(url.pathname, err as AppError);
  }
  const nonce = crypto.randomUUID().replace(/-/g, "");
  let response = await remix(withoutOriginOnTokenPaths(limited.request), nonce);
  // A streamed body that passed the cap broke the route's read: whatever the route answered, the answer is the 413.
  if (limited.tripped() && response.status !== 413) {
    await response.body?.cancel().catch(() => {});
    response = tooLarge(url.pathname, new AppError("payload_too_large", bodyLimit.message));
  }
  const headers = new Headers(response.headers);
  const isDocument = (headers.get("Content-Type") ?? "").includes("text/html");
  applySecurityHeaders(headers, nonce, isDocument, url.protocol === "https:", readSessionToken(request) !== null);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function tooLarge(pathname: string, err: AppError): Response {
  return isApiPath(pathname)
    ? apiErrorResponse(err)
    : new Response(err.message, { status: 413, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
