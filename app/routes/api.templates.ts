import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { requireApiUser } from "~/auth/guard.server";
import { methodNotAllowed, parseInput, readJson } from "~/lib/api.server";
import { AppError } from "~/lib/app-error";
import { apiRoute } from "~/lib/http.server";
import { createTemplate, listTemplates, MAX_TEMPLATE_PAGE } from "~/templates/manage-templates.server";
import { createTemplateSchema } from "~/templates/template-schema";

const listQuery = z.object({
  limit: z.coerce.number().int("limit must be an integer").min(1, "limit must be at least 1").max(MAX_TEMPLATE_PAGE, `limit must be at most ${MAX_TEMPLATE_PAGE}`).optional(),
  after: z.coerce.number().int().positive("after must be a template id").optional(),
});

/** GET /api/templates?limit&after — newest first; `X-Next-Cursor` when there is more. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiRoute(async () => {
    const parsed = listQuery.safeParse(Object.fromEntries(new URL(args.request.url).searchParams));
    if (!parsed.success) throw new AppError("validation", parsed.error.issues[0].message);
    const page = await listTemplates(args.context.db, parsed.data);
    const headers = new Headers({ "Cache-Control": "no-store" });
    if (page.nextCursor !== null) headers.set("X-Next-Cursor", String(page.nextCursor));
    return Response.json(page.templates, { headers });
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
