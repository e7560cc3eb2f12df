import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { requireApiUser } from "~/http/guard.server";
import { methodNotAllowed, pageResponse, parseInput, searchParamsOf } from "~/http/api.server";
import { apiRoute } from "~/http/http.server";
import { zodId } from "~/lib/ids";
import { activityTotal, listActivity } from "~/users/manage-users.server";

const query = z.object({
  limit: z.coerce
    .number()
    .int("limit must be an integer")
    .min(1, "limit must be at least 1")
    .max(200, "limit must be at most 200")
    .default(50),
  before: zodId().optional(),
  userId: zodId().optional(),
});

/**
 * GET /api/analytics/activity?limit&before&userId — SPEC §3/§7: a list of activity entries, latest first, each with
 * an optional `user {firstName, lastName, email}`. The total (the maintained counter) travels in X-Total-Count and
 * the next page's cursor in X-Next-Cursor, as on every paged list.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args, { role: "superuser" });
  return apiRoute(async () => {
    const q = parseInput(query, searchParamsOf(args.request));
    const [entries, total] = await Promise.all([listActivity(args.context.db, q), activityTotal(args.context.db)]);
    const next = entries.length === q.limit && !q.userId ? entries[entries.length - 1].id : null;
    const list = entries.map((e) => ({
      id: e.id,
      action: e.action,
      createdAt: e.createdAt,
      ipAddress: e.ipAddress ?? undefined,
      details: e.details ?? undefined,
      user: e.user ?? undefined,
    }));
    const res = pageResponse(list, { nextCursor: next });
    res.headers.set("X-Total-Count", String(total));
    return res;
  });
}

export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args, { role: "superuser" });
  return methodNotAllowed(["GET"]);
}
