import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { issueDeviceCookie, readDeviceId } from "~/auth/device-cookie.server";
import { publicUser } from "~/auth/guard.server";
import { LoginError, logIn } from "~/auth/login.server";
import { serializeSessionCookie } from "~/auth/session.server";
import { methodNotAllowed, readJson } from "~/lib/api.server";
import { apiError, clientIp, userAgent } from "~/lib/request.server";

export function loader() {
  return methodNotAllowed(["POST"]);
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = (await readJson(request)) as { email?: unknown; password?: unknown } | null;
  const email = typeof body?.email === "string" ? body.email : "";
  const password = typeof body?.password === "string" ? body.password : "";
  if (!email.trim() || !password) return apiError(400, "Please enter both email and password");
  try {
    const secret = context.cloudflare.env.SESSION_SECRET;
    const deviceId = await readDeviceId(request, secret, email);
    const { user, token } = await logIn(
      context.db,
      { email, password, ipAddress: clientIp(request), userAgent: userAgent(request), deviceId },
      context.clock(),
    );
    const headers = new Headers({ "Set-Cookie": serializeSessionCookie(request, token) });
    headers.append("Set-Cookie", await issueDeviceCookie(request, secret, user.email));
    return Response.json({ user: publicUser(user) }, { headers });
  } catch (err) {
    if (err instanceof LoginError) return apiError(err.status, err.message);
    throw err;
  }
}
