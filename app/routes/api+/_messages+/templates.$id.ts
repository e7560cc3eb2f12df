import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { recordRoute, type RecordEndpoint } from "~/http/record-route.server";
import { deleteTemplate } from "~/templates/delete-template.server";
import { getTemplate } from "~/templates/get-template.server";
import { updateTemplate } from "~/templates/update-template.server";
import { TEMPLATE_NOT_FOUND, updateTemplateSchema } from "~/templates/template-schema";

const TEMPLATE: RecordEndpoint = {
  notFound: TEMPLATE_NOT_FOUND,
  get: getTemplate,
  update: updateTemplate,
  remove: deleteTemplate,
  body: updateTemplateSchema,
};

/** GET /api/templates/:id → 200; PUT {name?, type?, subject?, content?} (`variables` recomputed from the content) → 200; DELETE → 204. */
export const loader = async (args: LoaderFunctionArgs) => recordRoute(args, TEMPLATE, await requireApiUser(args));
export const action = async (args: ActionFunctionArgs) => recordRoute(args, TEMPLATE, await requireApiUser(args));
