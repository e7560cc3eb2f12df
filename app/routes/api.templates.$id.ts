import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { methodNotAllowed, parseInput, readJson } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { requireId } from "~/lib/ids";
import { deleteTemplate, getTemplate, updateTemplate } from "~/templates/manage-templates.server";
import { TEMPLATE_NOT_FOUND, updateTemplateSchema } from "~/templates/template-schema";

/** GET /api/templates/:id. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiRoute(async () => Response.json(await getTemplate(args.context.db, requireId(args.params.id, TEMPLATE_NOT_FOUND))));
}

/** PUT /api/templates/:id {name?, type?, subject?, content?}; DELETE → 204. */
export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args);
  const { request, context } = args;
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed(["GET", "PUT", "DELETE"]);
  return apiRoute(async () => {
    const id = requireId(args.params.id, TEMPLATE_NOT_FOUND);
    if (request.method === "DELETE") {
      await deleteTemplate(context.db, id);
      return new Response(null, { status: 204 });
    }
    const input = parseInput(updateTemplateSchema, (await readJson(request)) ?? {});
    return Response.json(await updateTemplate(context.db, id, input, context.clock()));
  });
}
