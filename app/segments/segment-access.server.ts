import { eq } from "drizzle-orm";
import { inJson } from "~/db/bulk-update.server";
import type { Db } from "~/db/client.server";
import { segments, type Role, type Segment } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { readDefinition, type SegmentDefinition } from "./segment-definition";

export const SEGMENT_NOT_FOUND = "Segment not found";

/** Who may change a segment: its creator, or a superuser (the team's segments are everyone's to use). */
export type SegmentEditor = { userId: number; role: Role };
export const mayEditSegment = (s: { createdBy: number | null }, who: SegmentEditor) =>
  who.role === "superuser" || s.createdBy === who.userId;

export type LoadedSegment = Omit<Segment, "definition"> & { definition: SegmentDefinition };

/** One segment by its key, its definition read; a 404 when it is gone. */
export async function getSegment(db: Db, id: number): Promise<LoadedSegment> {
  const row = await db.select().from(segments).where(eq(segments.id, id)).get();
  if (!row) throw new AppError("not_found", SEGMENT_NOT_FOUND);
  return { ...row, definition: readDefinition(row.definition) };
}

/** The segment, when this person may change it; else a 403 (the route guards it first, this holds it). */
export async function requireSegmentEditor(db: Db, id: number, who: SegmentEditor): Promise<LoadedSegment> {
  const s = await getSegment(db, id);
  if (!mayEditSegment(s, who))
    throw new AppError("forbidden", "Only the segment's creator or a superuser can change it");
  return s;
}

/** Several segments' definitions by key (a dispatch's campaigns), one read. */
export async function loadDefinitions(db: Db, ids: number[]): Promise<Map<number, SegmentDefinition>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: segments.id, definition: segments.definition })
    .from(segments)
    .where(inJson(segments.id, ids));
  return new Map(rows.map((r) => [r.id, readDefinition(r.definition)]));
}
