import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { postJson } from "~/lib/http.server";
import { clientIp } from "~/lib/request.server";
import { createUser, listUsers } from "~/users/manage-users.server";
import { newUserSchema } from "~/users/user-schema";

/** GET /api/users — every account (superusers only). */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args, { role: "superuser" });
  return Response.json(await listUsers(args.context.db), { headers: { "Cache-Control": "no-store" } });
}

/** POST /api/users → 201 `{ user, password }`: the one-time password appears in this response only. */
export async function action(args: ActionFunctionArgs) {
  const me = await requireApiUser(args, { role: "superuser" });
  return postJson(
    args.request,
    newUserSchema,
    (input) => createUser(args.context.db, input, { userId: me.id, ipAddress: clientIp(args.request) }, args.context.clock()),
    { status: 201 },
  );
}
