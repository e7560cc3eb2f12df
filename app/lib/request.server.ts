/** Client IP as Cloudflare's edge reports it (clients cannot forge it there); absent locally. */
export function clientIp(request: Request): string | null {
  return request.headers.get("CF-Connecting-IP");
}

export function userAgent(request: Request): string | null {
  return request.headers.get("User-Agent")?.slice(0, 500) ?? null;
}

export function isApiPath(pathname: string) {
  return pathname === "/api" || pathname.startsWith("/api/");
}
