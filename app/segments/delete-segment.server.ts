import { and, eq, inArray, isNull } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { broadcasts, campaigns, segments } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { AppError } from "~/lib/app-error";
import { requireSegmentEditor, type SegmentEditor } from "./segment-access.server";

/**
 * Deletes a segment nobody is waiting on: a draft, running or paused campaign whose audience it is, or a broadcast
 * not yet sent to it, keeps it (its contacts are read when the step or the broadcast goes out). Logged in one batch.
 */
export async function deleteSegment(db: Db, id: number, actor: Actor & SegmentEditor, now: Date) {
  const s = await requireSegmentEditor(db, id, actor);
  const [campaign, broadcast] = await Promise.all([
    db
      .select({ name: campaigns.name })
      .from(campaigns)
      .where(and(eq(campaigns.segmentId, id), inArray(campaigns.status, ["draft", "running", "paused"])))
      .get(),
    db
      .select({ id: broadcasts.id })
      .from(broadcasts)
      .where(and(eq(broadcasts.segmentId, id), isNull(broadcasts.resolvedAt)))
      .get(),
  ]);
  if (campaign)
    throw new AppError("conflict", `The campaign “${campaign.name}” sends to this segment; change its audience first`);
  if (broadcast) throw new AppError("conflict", "A scheduled broadcast sends to this segment; cancel it first");
  await runBatch(db, [
    db.delete(segments).where(eq(segments.id, id)),
    logActivity(db, "delete_segment", {
      ...actor,
      now,
      details: { segmentId: id, name: s.name },
    }),
  ]);
}
