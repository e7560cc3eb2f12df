import type { ActionFunctionArgs } from "@remix-run/cloudflare";
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
    const { user, token } = await logIn(
      context.db,
      { email, password, ipAddress: clientIp(request), userAgent: userAgent(request) },
      context.clock(),
    );
    return Response.json({ user: publicUser(user) }, { headers: { "Set-Cookie": serializeSessionCookie(request, token) } });
  } catch (err) {
    if (err instanceof LoginError) return apiError(err.status, err.message);
    throw err;
  }
}
