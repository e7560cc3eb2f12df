import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { apiError } from "~/lib/request.server";

async function notFound(args: LoaderFunctionArgs | ActionFunctionArgs) {
  await requireApiUser(args);
  return apiError(404, "Not found");
}
export const loader = notFound;
export const action = notFound;
