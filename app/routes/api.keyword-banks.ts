import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { parseBank } from "~/alerts/alert-schema";
import { createBank, listBanks, publicBank } from "~/alerts/manage-alert-settings.server";
import { requireApiUser } from "~/auth/guard.server";
import { methodNotAllowed, readJson } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";

/** GET /api/keyword-banks — every keyword bank, newest first (bounded). */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiRoute(async () => Response.json((await listBanks(args.context.db)).map(publicBank)));
}

/** POST /api/keyword-banks → 201; 400 "Missing information" without the required fields. */
export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args);
  const { request, context } = args;
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  return apiRoute(async () => Response.json(publicBank(await createBank(context.db, parseBank(await readJson(request)), context.clock())), { status: 201 }));
}
