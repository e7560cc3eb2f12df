/** Client IP as Cloudflare reports it; absent locally unless a proxy sets it. */
export function clientIp(request: Request): string | null {
  return request.headers.get("CF-Connecting-IP") ?? request.headers.get("X-Real-IP") ?? null;
}

export function userAgent(request: Request): string | null {
  return request.headers.get("User-Agent")?.slice(0, 500) ?? null;
}

export function isApiPath(pathname: string) {
  return pathname === "/api" || pathname.startsWith("/api/");
}

/** Errors from /api are always `{ message }` JSON. */
export function apiError(status: number, message: string, headers?: HeadersInit): Response {
  return Response.json({ message }, { status, headers });
}
