import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { methodNotAllowed, readJson } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { createResponder, listResponders } from "~/responders/manage-responders.server";
import { parseResponder } from "~/responders/responder-schema";

/** GET /api/auto-responders — every responder, newest first (bounded). */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiRoute(async () => Response.json(await listResponders(args.context.db)));
}

/** POST /api/auto-responders — the full responder (SPEC §3); defaults fill the rest → 201; 400 with the SPEC's message. */
export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args);
  const { request, context } = args;
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  return apiRoute(async () => Response.json(await createResponder(context.db, parseResponder(await readJson(request)), context.clock()), { status: 201 }));
}
