import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { methodNotAllowed, pageQuery, pageResponse, parseInput, readJson } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { createTemplate, listTemplates, MAX_TEMPLATE_PAGE } from "~/templates/manage-templates.server";
import { createTemplateSchema } from "~/templates/template-schema";

/** GET /api/templates?limit&after — newest first; `X-Next-Cursor` when there is more. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiRoute(async () => {
    const page = await listTemplates(args.context.db, pageQuery(args.request, MAX_TEMPLATE_PAGE, "a template"));
    return pageResponse(page.templates, page);
  });
}

/** POST /api/templates {name, type, subject, content} → 201; `variables` computed from the content. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  if (args.request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  return apiRoute(async () => {
    const input = parseInput(createTemplateSchema, (await readJson(args.request)) ?? {});
    return Response.json(await createTemplate(args.context.db, input, user.id, args.context.clock()), { status: 201 });
  });
}
