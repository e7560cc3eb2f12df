import { count, eq } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { pipelineStages, segments, users } from "~/db/schema";
import { isUniqueIndexViolation } from "~/db/unique-violation";
import { UNKNOWN_STAGE } from "~/contacts/pipeline-stages.server";
import type { Actor } from "~/lib/actor";
import { AppError } from "~/lib/app-error";
import { formatCount } from "~/lib/format-count";
import { inJson } from "~/db/bulk-update.server";
import { isEmptyDefinition, MAX_SEGMENTS, type SegmentDefinition } from "./segment-definition";
import { requireSegmentEditor, type SegmentEditor } from "./segment-access.server";

export type SegmentInput = { name: string; definition: SegmentDefinition };

export const SEGMENT_NAME_TAKEN = "A segment with this name already exists";

/**
 * Creates a segment, or changes one (`id`): the stages and owner it names must exist (a typo would match nobody,
 * silently), a definition that tests nothing is refused (an audience of everyone is "all contacts", said so), the name
 * is the team's unique label. Only its creator or a superuser changes one. Logged with the write in one batch.
 */
export async function saveSegment(
  db: Db,
  input: SegmentInput & { id?: number },
  actor: Actor & SegmentEditor,
  now: Date,
): Promise<{ id: number }> {
  const d = input.definition;
  if (isEmptyDefinition(d))
    throw new AppError("validation", "Choose at least one thing the contacts have in common", { field: "stages" });
  const [known, owner] = await Promise.all([
    d.stages.length
      ? db.select({ n: count() }).from(pipelineStages).where(inJson(pipelineStages.key, d.stages)).get()
      : null,
    typeof d.owner === "number" ? db.select({ id: users.id }).from(users).where(eq(users.id, d.owner)).get() : null,
  ]);
  if (known && known.n !== new Set(d.stages).size) throw new AppError("validation", UNKNOWN_STAGE, { field: "stages" });
  if (typeof d.owner === "number" && !owner)
    throw new AppError("validation", "Choose one of the team's users", { field: "owner" });
  const definition = JSON.stringify(d);
  try {
    if (input.id !== undefined) {
      await requireSegmentEditor(db, input.id, actor);
      await runBatch(db, [
        db.update(segments).set({ name: input.name, definition, updatedAt: now }).where(eq(segments.id, input.id)),
        logActivity(db, "update_segment", {
          ...actor,
          now,
          details: { segmentId: input.id },
        }),
      ]);
      return { id: input.id };
    }
    const n = await db.select({ n: count() }).from(segments).get();
    if ((n?.n ?? 0) >= MAX_SEGMENTS)
      throw new AppError("validation", `A team keeps at most ${formatCount(MAX_SEGMENTS)} segments; delete one first`);
    const [rows] = (await runBatch(db, [
      db
        .insert(segments)
        .values({ name: input.name, definition, createdBy: actor.userId, createdAt: now, updatedAt: now })
        .returning({ id: segments.id }),
      logActivity(db, "create_segment", {
        ...actor,
        now,
        details: { name: input.name },
      }),
    ])) as [{ id: number }[], unknown];
    return { id: rows[0].id };
  } catch (err) {
    if (isUniqueIndexViolation(err, "segments_name_uq"))
      throw new AppError("conflict", SEGMENT_NAME_TAKEN, { field: "name" });
    throw err;
  }
}
