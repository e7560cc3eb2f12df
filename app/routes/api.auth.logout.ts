import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { logOut } from "~/auth/logout.server";
import { serializeSessionCookie } from "~/auth/session.server";
import { methodNotAllowed } from "~/lib/api.server";

export function loader() {
  return methodNotAllowed(["POST"]);
}

export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST") return methodNotAllowed(["POST"]);
  await requireApiUser(args);
  await logOut(args.context.db, args.request, args.context.clock());
  return new Response(null, { status: 204, headers: { "Set-Cookie": serializeSessionCookie(args.request, null) } });
}
