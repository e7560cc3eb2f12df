import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { postJson } from "~/http/http.server";
import { pagedListRoute } from "~/http/record-route.server";
import { clientIp } from "~/lib/request.server";
import { createUser, listUsers, MAX_USERS_PAGE } from "~/users/manage-users.server";
import { newUserSchema } from "~/users/user-schema";

/** GET /api/users?after&limit — accounts oldest first (superusers only); `X-Next-Cursor` when there is more. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args, { role: "superuser" });
  return pagedListRoute(args, { max: MAX_USERS_PAGE, item: "a user", list: listUsers });
}

/** POST /api/users → 201 `{ user, password }`: the one-time password appears in this response only. */
export async function action(args: ActionFunctionArgs) {
  const me = await requireApiUser(args, { role: "superuser" });
  return postJson(
    args.request,
    newUserSchema,
    (input) =>
      createUser(args.context.db, input, { userId: me.id, ipAddress: clientIp(args.request) }, args.context.clock()),
    { status: 201 },
  );
}
