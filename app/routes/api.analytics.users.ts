import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { methodNotAllowed, pageQuery, pageResponse } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { listUsers, MAX_USERS_PAGE } from "~/users/manage-users.server";

/** GET /api/analytics/users?after&limit — SPEC §3 user analytics fields (superusers only), paged like /api/users. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args, { role: "superuser" });
  return apiRoute(async () => {
    const { after, limit } = pageQuery(args.request, MAX_USERS_PAGE, "a user");
    const page = await listUsers(args.context.db, { after: after ?? null, limit });
    const users = page.users.map((u) => ({
      id: u.id,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      role: u.role,
      isActive: u.isActive,
      lastLoginAt: u.lastLoginAt,
      loginCount: u.loginCount,
      createdAt: u.createdAt,
      totalActivities: u.totalActivities,
    }));
    return pageResponse(users, page);
  });
}

export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args, { role: "superuser" });
  return methodNotAllowed(["GET"]);
}
