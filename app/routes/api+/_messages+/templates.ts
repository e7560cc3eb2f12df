import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { parseInput } from "~/http/api.server";
import type { Db } from "~/db/client.server";
import { pagedCollectionRoute } from "~/http/record-route.server";
import type { Actor } from "~/lib/actor";
import { createTemplate } from "~/templates/create-template.server";
import { listTemplates, MAX_TEMPLATE_PAGE } from "~/templates/list-templates.server";
import { createTemplateSchema, type CreateTemplateInput } from "~/templates/template-schema";

const TEMPLATES = {
  max: MAX_TEMPLATE_PAGE,
  item: "a template",
  list: listTemplates,
  parse: (body: unknown) => parseInput(createTemplateSchema, body ?? {}),
  create: (db: Db, input: CreateTemplateInput, actor: Actor, now: Date) => createTemplate(db, input, actor.userId, now),
};

/** GET /api/templates?limit&after — newest first, `X-Next-Cursor` when there is more; POST {name, type, subject, content} → 201, `variables` computed from the content. */
export const loader = async (args: LoaderFunctionArgs) =>
  pagedCollectionRoute(args, TEMPLATES, await requireApiUser(args));
export const action = async (args: ActionFunctionArgs) =>
  pagedCollectionRoute(args, TEMPLATES, await requireApiUser(args));
