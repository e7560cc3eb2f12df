import { desc } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { pageNewestFirst, type PageOpts } from "~/db/page-newest-first.server";
import { templates } from "~/db/schema";
import { publicTemplate, type PublicTemplate } from "./public-template.server";

export const TEMPLATE_PAGE = 50;
export const MAX_TEMPLATE_PAGE = 200;

/** The newest `limit` templates (a picker's first page): a builder, to ride in a page's batch. */
export function selectNewestTemplates(db: Db, limit: number) {
  return db.select().from(templates).orderBy(desc(templates.id)).limit(limit);
}

/** Newest first, keyset-paged on the primary key. Templates are shared by the team. */
export function listTemplates(
  db: Db,
  opts: PageOpts = {},
): Promise<{ items: PublicTemplate[]; nextCursor: number | null }> {
  return pageNewestFirst(db, templates, opts, { page: TEMPLATE_PAGE, max: MAX_TEMPLATE_PAGE }, publicTemplate);
}
