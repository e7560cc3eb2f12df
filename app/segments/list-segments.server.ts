import { asc, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { segments } from "~/db/schema";
import { MAX_SEGMENTS, readDefinition } from "./segment-definition";

/** The team's segments by name (a small, capped table; segments_name_uq gives the order). A builder, for a page's batch. */
export function selectSegments(db: Db) {
  return db
    .select({ id: segments.id, name: segments.name, definition: segments.definition, createdBy: segments.createdBy })
    .from(segments)
    .orderBy(asc(sql`lower(${segments.name})`))
    .limit(MAX_SEGMENTS);
}

export async function listSegments(db: Db) {
  const rows = await selectSegments(db);
  return rows.map((r) => ({ ...r, definition: readDefinition(r.definition) }));
}

/** A picker's choices: id and name. */
export type SegmentChoice = { id: number; name: string };
export async function listSegmentChoices(db: Db): Promise<SegmentChoice[]> {
  return (await selectSegments(db)).map(({ id, name }) => ({ id, name }));
}
