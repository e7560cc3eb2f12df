import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { logOut } from "~/auth/logout.server";
import { serializeSessionCookie } from "~/auth/session.server";
import { methodNotAllowed } from "~/http/api.server";
import { apiRoute } from "~/http/http.server";

// POST only: 401 without a session, then 405.
export const loader = async (args: LoaderFunctionArgs) => {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
};

export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args);
  if (args.request.method !== "POST") return methodNotAllowed(["POST"]);
  return apiRoute(async () => {
    await logOut(args.context.db, args.request, args.context.clock());
    return new Response(null, { status: 204, headers: { "Set-Cookie": serializeSessionCookie(args.request, null) } });
  });
}
