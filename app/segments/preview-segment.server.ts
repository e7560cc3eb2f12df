import { and, count, desc, eq, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { contacts } from "~/db/schema";
import { loadContactScope, scopeCondition, type ContactViewer } from "~/contacts/contact-scope.server";
import type { SegmentDefinition } from "./segment-definition";
import { segmentWhere } from "./segment-where.server";

export const PREVIEW_PAGE = 50;

/**
 * Who is in a segment right now, as this person sees them (decision 048): how many, and a page newest first (keyset
 * on id). One statement reads the contacts the definition's indexes lead to — all of them for a test no index serves —
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
  // One walk of the segment: its size is a window count riding on the page's rows. A segment few contacts fit (at 5M
  // messages, "no message in 30 days") is found only by walking nearly every contact, so a count beside a page
  // walked them twice (bench: 2.0× the bare count at 5,000,000 messages).
  // The walk selects only ids (any index of contacts covers them, so it reads no contact's row); the page's 50 rows
  // are then read by key.
  const inSegment = db
    .select({ id: contacts.id, total: sql<number>`count(*) over ()`.as("total") })
    .from(contacts)
    .where(where)
    .as("in_segment");
  const c = alias(contacts, "c");
  const rows = await db
    .select({
      id: c.id,
      firstName: c.firstName,
      lastName: c.lastName,
      phone: c.phone,
      email: c.email,
      stage: c.stage,
      zipCode: c.zipCode,
      total: inSegment.total,
    })
    .from(inSegment)
    .innerJoin(c, eq(c.id, inSegment.id))
    .where(opts.after ? lt(inSegment.id, opts.after) : undefined)
    .orderBy(desc(inSegment.id))
    .limit(limit + 1);
  // No rows on the first page: nobody fits. Past a cursor (the segment shrank since it was handed out) the empty page
  // carries no count: ask for it.
  const total = rows.length
    ? rows[0].total
    : opts.after
      ? ((await db.select({ n: count() }).from(contacts).where(where).get())?.n ?? 0)
      : 0;
  const page = rows.slice(0, limit).map(({ total: _, ...c }) => c);
  return {
    /** A standard user sees the contacts of their scope only (decision 048); the send reads the sender's. */
    scoped: scope.kind !== "all",
    count: total,
    contacts: page,
    nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}
export type SegmentPreview = Awaited<ReturnType<typeof previewSegment>>;
