import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { pageQuery, pageResponse } from "~/http/api.server";
import { apiRoute, postJson } from "~/http/http.server";
import { clientIp } from "~/lib/request.server";
import { createUser, listUsers, MAX_USERS_PAGE } from "~/users/manage-users.server";
import { newUserSchema } from "~/users/user-schema";

/** GET /api/users?after&limit — accounts oldest first (superusers only); `X-Next-Cursor` when there is more. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args, { role: "superuser" });
  return apiRoute(async () => {
    const { after, limit } = pageQuery(args.request, MAX_USERS_PAGE, "a user");
    const page = await listUsers(args.context.db, { after: after ?? null, limit });
    return pageResponse(page.users, page);
  });
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
