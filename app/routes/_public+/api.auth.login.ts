import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { issueDeviceCookie, readDeviceId } from "~/auth/device-cookie.server";
import { publicUser } from "~/http/guard.server";
import { EMAIL_MAX, EMAIL_TOO_LONG, PASSWORD_MAX, PASSWORD_TOO_LONG } from "~/auth/login-schema";
import { logIn, TWO_FACTOR_REQUIRED } from "~/auth/login.server";
import { serializeSessionCookie } from "~/auth/session.server";
import { methodNotAllowed, parseJsonBody } from "~/http/api.server";
import { AppError } from "~/lib/app-error";
import { apiRoute } from "~/http/http.server";
import { clientIp, userAgent } from "~/lib/request.server";

// Public (no session yet): listed in the route-guard test's allow-list.
export function loader() {
  return methodNotAllowed(["POST"]);
}

const credentials = z
  .unknown()
  .transform((raw) => {
    const b = (raw ?? {}) as { email?: unknown; password?: unknown; code?: unknown };
    return {
      email: typeof b.email === "string" ? b.email : "",
      password: typeof b.password === "string" ? b.password : "",
      code: typeof b.code === "string" ? b.code.slice(0, 32) : null,
    };
  })
  .refine((c) => c.email.trim() !== "" && c.password !== "", "Please enter both email and password")
  // The same bounds as the sign-in form: nothing longer is hashed or stored in login_history (issue 23).
  .refine((c) => c.email.trim().length <= EMAIL_MAX, EMAIL_TOO_LONG)
  .refine((c) => c.password.length <= PASSWORD_MAX, PASSWORD_TOO_LONG);

/**
 * POST /api/auth/login `{ email, password, code? }` → `{ user }` and the session cookie. An account with two-factor
 * on needs `code` (TOTP or recovery code) in the same call: without it, 401 `{ message, twoFactorRequired: true }`.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return apiRoute(async () => {
    const { email, password, code } = await parseJsonBody(request, credentials);
    const secret = context.cloudflare.env.SESSION_SECRET;
    const deviceId = await readDeviceId(request, secret, email);
    const { user, token } = await logIn(
      context.db,
      { email, password, code, ipAddress: clientIp(request), userAgent: userAgent(request), deviceId },
      context.clock(),
    );
    if (!user) throw new AppError("unauthorized", TWO_FACTOR_REQUIRED, { details: { twoFactorRequired: true } });
    const headers = new Headers({ "Set-Cookie": serializeSessionCookie(request, token) });
    headers.append("Set-Cookie", await issueDeviceCookie(request, secret, user.email));
    return Response.json({ user: publicUser(user) }, { headers });
  });
}
