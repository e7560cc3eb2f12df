import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { apiRoute, postJson } from "~/lib/http.server";
import { clientIp } from "~/lib/request.server";
import { createUser } from "~/users/manage-users.server";
import { usersPage } from "~/users/users-page.server";
import { newUserSchema } from "~/users/user-schema";

/** GET /api/users?after&limit — accounts oldest first (superusers only); `X-Next-Cursor` when there is more. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args, { role: "superuser" });
  return apiRoute(async () => {
    return usersPage(args.context.db, args.request);
  });
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
