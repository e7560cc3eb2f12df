import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { methodNotAllowed, pageQuery, pageResponse } from "~/http/api.server";
import { apiRoute } from "~/http/http.server";
import { listUserAnalytics } from "~/users/list-user-analytics.server";
import { MAX_USERS_PAGE } from "~/users/manage-users.server";

/**
 * GET /api/analytics/users?after&limit — a list of users with SPEC §3's analytics fields, recentActivities and
 * loginHistory included (superusers only), paged like /api/users (X-Next-Cursor).
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args, { role: "superuser" });
  return apiRoute(async () => {
    const { after, limit } = pageQuery(args.request, MAX_USERS_PAGE, "a user");
    const page = await listUserAnalytics(args.context.db, { after: after ?? null, limit });
    return pageResponse(page.users, page);
  });
}

export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args, { role: "superuser" });
  return methodNotAllowed(["GET"]);
}
