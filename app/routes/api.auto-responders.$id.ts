import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { methodNotAllowed, readJson } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { requireId } from "~/lib/ids";
import { deleteResponder, getResponder, updateResponder } from "~/responders/manage-responders.server";
import { RESPONDER_NOT_FOUND } from "~/responders/responder-schema";

/** GET /api/auto-responders/:id. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiRoute(async () => Response.json(await getResponder(args.context.db, requireId(args.params.id, RESPONDER_NOT_FOUND))));
}

/** PUT /api/auto-responders/:id — a partial (e.g. `{ "isActive": false }`) merged and validated whole → 200; DELETE → 204. */
export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args);
  const { request, context } = args;
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed(["GET", "PUT", "DELETE"]);
  return apiRoute(async () => {
    const id = requireId(args.params.id, RESPONDER_NOT_FOUND);
    if (request.method === "DELETE") {
      await deleteResponder(context.db, id);
      return new Response(null, { status: 204 });
    }
    return Response.json(await updateResponder(context.db, id, await readJson(request), context.clock()));
  });
}
