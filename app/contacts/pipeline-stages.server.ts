import { asc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { pipelineStages, type PipelineStage } from "~/db/schema";
import { AppError } from "~/lib/app-error";

export const UNKNOWN_STAGE = "Choose one of the pipeline's stages";

/** The pipeline's stages in board order (a handful of rows, decision 053); a builder, to ride in a page's batch. */
export function selectPipelineStages(db: Db) {
  return db.select().from(pipelineStages).orderBy(asc(pipelineStages.position), asc(pipelineStages.key));
}

export function listPipelineStages(db: Db): Promise<PipelineStage[]> {
  return selectPipelineStages(db);
}

/** The stage with this key, or a 400 naming the field. */
export async function requireStage(db: Db, key: string, field = "stage"): Promise<PipelineStage> {
  const stage = await db.select().from(pipelineStages).where(eq(pipelineStages.key, key)).get();
  if (!stage) throw new AppError("validation", UNKNOWN_STAGE, { field });
  return stage;
}
