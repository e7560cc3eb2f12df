import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { methodNotAllowed } from "~/http/api.server";
import { pagedListRoute } from "~/http/record-route.server";
import { listUserAnalytics } from "~/users/list-user-analytics.server";
import { MAX_USERS_PAGE } from "~/users/manage-users.server";

/**
 * GET /api/analytics/users?after&limit — a list of users with SPEC §3's analytics fields, recentActivities and
 * loginHistory included (superusers only), paged like /api/users (X-Next-Cursor); `repFigures` per user: the
 * conversations handled and replies sent in the last 30 days (decision 050).
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args, { role: "superuser" });
  const now = args.context.clock();
  return pagedListRoute(args, {
    max: MAX_USERS_PAGE,
    item: "a user",
    list: (db, q) => listUserAnalytics(db, { ...q, now }),
  });
}

export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args, { role: "superuser" });
  return methodNotAllowed(["GET"]);
}
