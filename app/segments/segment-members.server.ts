import { and, count, desc, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contacts } from "~/db/schema";
import { scopeCondition, type ContactScope } from "~/contacts/contact-scope.server";
import { inJson } from "~/db/bulk-update.server";
import { AppError } from "~/lib/app-error";
import { loadDefinitions } from "./segment-access.server";
import { stayingPart, type SegmentDefinition } from "./segment-definition";
import { segmentWhere } from "./segment-where.server";

/** Contact ids a resolution step walks per statement: a primary-key range, so each statement reads at most this many. */
export const SEGMENT_SPAN = 5000;

/**
 * One step of reading a segment's contacts newest first, for writes done inside the database (a campaign's enrolments,
 * a broadcast's messages): `members` is the WHERE term on `contacts` for the segment's contacts among the next `span`
 * contact ids below `below` (in the scope), and `bounds` reads where that range ended and how long it was — both run
 * in the caller's batch beside its INSERT … SELECT. The walk reads the table once over all its steps, a range per
 * statement, never the whole table in one.
 */
export function segmentStep(
  db: Db,
  def: SegmentDefinition,
  scope: ContactScope,
  below: number | null,
  now: Date,
  span = SEGMENT_SPAN,
) {
  const range = () =>
    db
      .select({ id: contacts.id })
      .from(contacts)
      .where(below === null ? undefined : lt(contacts.id, below))
      .orderBy(desc(contacts.id))
      .limit(span);
  const r = range().as("r");
  const members: SQL = and(inArray(contacts.id, range()), segmentWhere(def, now), scopeCondition(scope))!;
  const bounds = db.select({ lo: sql<number | null>`min(${r.id})`, n: count() }).from(r);
  // Where the walk goes next, as SQL for a write in the same batch: the range's lowest id, NULL when it was the last.
  const nextCursor = sql`(SELECT CASE WHEN count(*) < ${span} THEN NULL ELSE min(r.id) END FROM ${range().as("r")})`;
  return { members, bounds, nextCursor, span };
}

/** Where the walk goes next from a step's bounds: the range's lowest id, or null when the table is done. */
export const nextBelow = (b: { lo: number | null; n: number } | undefined, span: number): number | null =>
  !b || b.n < span || b.lo === null ? null : b.lo;

/** A page of the segment's contact ids newest first, below `after` (in the scope): the pre-start check's read. */
export function selectSegmentMemberIds(
  db: Db,
  def: SegmentDefinition,
  scope: ContactScope,
  now: Date,
  after: number | null,
  limit: number,
) {
  return db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(segmentWhere(def, now), scopeCondition(scope), after === null ? undefined : lt(contacts.id, after)))
    .orderBy(desc(contacts.id))
    .limit(limit);
}

/**
 * Which of these contacts still fit the segment's lasting part (stayingPart): the campaign dispatcher's check before a
 * later step — the due contacts read by primary key, never the segment's whole membership.
 */
export async function contactsStillIn(db: Db, def: SegmentDefinition, ids: number[], now: Date): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(inJson(contacts.id, ids), segmentWhere(stayingPart(def), now)));
  return new Set(rows.map((r) => r.id));
}

/**
 * The segment's contacts now (in the scope), newest first, at most `max`: what a pre-send check judges. A segment
 * deleted meanwhile is a 400 naming the field.
 */
export async function readSegmentContactIds(
  db: Db,
  segmentId: number,
  scope: ContactScope,
  now: Date,
  max = 100_000,
): Promise<number[]> {
  const def = (await loadDefinitions(db, [segmentId])).get(segmentId);
  if (!def) throw new AppError("validation", "Choose one of the team's segments", { field: "segmentId" });
  const ids: number[] = [];
  for (let after: number | null = null; ids.length < max; ) {
    const rows = await selectSegmentMemberIds(db, def, scope, now, after, Math.min(SEGMENT_SPAN, max - ids.length));
    ids.push(...rows.map((r) => r.id));
    if (rows.length < SEGMENT_SPAN) break;
    after = rows[rows.length - 1].id;
  }
  return ids;
}
