import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { AppError } from "~/lib/app-error";
import { apiErrorResponse } from "~/http/http.server";

/** Unknown /api paths: 401 without a session, else a 404 `{ message }` (never the HTML 404 page). */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiErrorResponse(new AppError("not_found", "Not found"));
}

export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args);
  return apiErrorResponse(new AppError("not_found", "Not found"));
}
