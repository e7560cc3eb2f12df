import type { Db } from "~/db/client.server";
import { pageNewestFirst } from "~/db/page-newest-first.server";
import { templates } from "~/db/schema";
import { publicTemplate, type PublicTemplate } from "./public-template.server";

export const TEMPLATE_PAGE = 50;
export const MAX_TEMPLATE_PAGE = 200;

/** Newest first, keyset-paged on the primary key. Templates are shared by the team. */
export async function listTemplates(
  db: Db,
  opts: { after?: number | null; limit?: number } = {},
): Promise<{ items: PublicTemplate[]; nextCursor: number | null }> {
  const { rows, nextCursor } = await pageNewestFirst(db, templates, opts, {
    page: TEMPLATE_PAGE,
    max: MAX_TEMPLATE_PAGE,
  });
  return { items: rows.map(publicTemplate), nextCursor };
}
