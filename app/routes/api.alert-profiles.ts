import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { parseProfile } from "~/alerts/alert-schema";
import { createProfile, listProfiles } from "~/alerts/manage-alert-settings.server";
import { requireApiUser } from "~/auth/guard.server";
import { methodNotAllowed, readJson } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";

/** GET /api/alert-profiles — every alert profile, newest first (bounded). */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiRoute(async () => Response.json(await listProfiles(args.context.db)));
}

/** POST /api/alert-profiles → 201; 400 "Missing information" without the required fields. */
export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args);
  const { request, context } = args;
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  return apiRoute(async () => Response.json(await createProfile(context.db, parseProfile(await readJson(request)), context.clock()), { status: 201 }));
}
