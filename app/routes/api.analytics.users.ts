import type {
  ActionFunctionArgs,
  LoaderFunctionArgs,
} from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { methodNotAllowed } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { usersPage } from "~/users/users-page.server";

/** GET /api/analytics/users?after&limit — SPEC §3 user analytics fields (superusers only), paged like /api/users. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args, { role: "superuser" });
  return apiRoute(async () => {
    return usersPage(args.context.db, args.request, (u) => ({
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
  });
}

export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args, { role: "superuser" });
  return methodNotAllowed(["GET"]);
}
