import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { parseInput } from "~/lib/api.server";
import { changeRecord, getRecord, type RecordEndpoint } from "~/lib/record-route.server";
import { deleteTemplate, getTemplate, updateTemplate } from "~/templates/manage-templates.server";
import { TEMPLATE_NOT_FOUND, updateTemplateSchema } from "~/templates/template-schema";

/** PUT takes {name?, type?, subject?, content?}; `variables` is recomputed from the content. */
const TEMPLATE: RecordEndpoint = {
  notFound: TEMPLATE_NOT_FOUND,
  get: ({ context }, id) => getTemplate(context.db, id),
  update: ({ context }, id, body) => updateTemplate(context.db, id, parseInput(updateTemplateSchema, body ?? {}), context.clock()),
  remove: ({ context }, id) => deleteTemplate(context.db, id),
};

/** GET /api/templates/:id. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return getRecord(args, TEMPLATE);
}

/** PUT /api/templates/:id → 200; DELETE → 204. */
export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args);
  return changeRecord(args, TEMPLATE);
}
