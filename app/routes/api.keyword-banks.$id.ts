import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { BANK_NOT_FOUND } from "~/alerts/alert-schema";
import { deleteBank, getBank, updateBank, publicBank } from "~/alerts/manage-alert-settings.server";
import { requireApiUser } from "~/auth/guard.server";
import { methodNotAllowed, readJson } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { requireId } from "~/lib/ids";

/** GET /api/keyword-banks/:id. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiRoute(async () => Response.json(publicBank(await getBank(args.context.db, requireId(args.params.id, BANK_NOT_FOUND)))));
}

/** PUT /api/keyword-banks/:id — a partial (e.g. `{ "isActive": false }`) merged and validated whole → 200; DELETE → 204. */
export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args);
  const { request, context } = args;
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed(["GET", "PUT", "DELETE"]);
  return apiRoute(async () => {
    const id = requireId(args.params.id, BANK_NOT_FOUND);
    if (request.method === "DELETE") {
      await deleteBank(context.db, id);
      return new Response(null, { status: 204 });
    }
    return Response.json(publicBank(await updateBank(context.db, id, await readJson(request), context.clock())));
  });
}
