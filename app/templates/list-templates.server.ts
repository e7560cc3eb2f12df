import type { Db } from "~/db/client.server";
import { pageNewestFirst, type PageOpts } from "~/db/page-newest-first.server";
import { templates } from "~/db/schema";
import { publicTemplate, type PublicTemplate } from "./public-template.server";

export const TEMPLATE_PAGE = 50;
export const MAX_TEMPLATE_PAGE = 200;

/** Newest first, keyset-paged on the primary key. Templates are shared by the team. */
export function listTemplates(
  db: Db,
  opts: PageOpts = {},
): Promise<{ items: PublicTemplate[]; nextCursor: number | null }> {
  return pageNewestFirst(db, templates, opts, { page: TEMPLATE_PAGE, max: MAX_TEMPLATE_PAGE }, publicTemplate);
}
