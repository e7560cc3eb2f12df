import { and, count, desc, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contacts } from "~/db/schema";
import { loadContactScope, scopeCondition, type ContactViewer } from "~/contacts/contact-scope.server";
import type { SegmentDefinition } from "./segment-definition";
import { segmentWhere } from "./segment-where.server";

export const PREVIEW_PAGE = 50;

/**
 * Who is in a segment right now, as this person sees them (decision 048): how many, and a page newest first (keyset
 * on id). The count reads the contacts the definition's indexes lead to — all of them for a test no index serves —
 * once per view; the benchmark holds it to the screens' budget at 100,000 contacts (decision 075).
 */
export async function previewSegment(
  db: Db,
  def: SegmentDefinition,
  viewer: ContactViewer,
  opts: { after?: number | null; now: Date; limit?: number },
) {
  const scope = await loadContactScope(db, viewer);
  const where = and(segmentWhere(def, opts.now), scopeCondition(scope));
  const limit = opts.limit ?? PREVIEW_PAGE;
  const [total, rows] = await Promise.all([
    db.select({ n: count() }).from(contacts).where(where).get(),
    db
      .select({
        id: contacts.id,
        firstName: contacts.firstName,
        lastName: contacts.lastName,
        phone: contacts.phone,
        email: contacts.email,
        stage: contacts.stage,
        zipCode: contacts.zipCode,
      })
      .from(contacts)
      .where(and(where, opts.after ? lt(contacts.id, opts.after) : undefined))
      .orderBy(desc(contacts.id))
      .limit(limit + 1),
  ]);
  const page = rows.slice(0, limit);
  return {
    count: total?.n ?? 0,
    contacts: page,
    nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}
export type SegmentPreview = Awaited<ReturnType<typeof previewSegment>>;
