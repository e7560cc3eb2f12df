import { and, eq, gt, lt, max, sql } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { contacts, pipelineStages, type PipelineStage } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { AppError } from "~/lib/app-error";
import { requireStage } from "./pipeline-stages.server";
import { BUILT_IN_STAGES, MAX_STAGES } from "./pipeline-stage-limits";

// Editing the pipeline's stages (decision 053), a superuser's work on /pipeline-stages. Keys never change (contacts,
// the API and the code name them); labels, order and new stages are the team's.

/** A label's key: lower-case letters, digits and underscores ("Site survey" → "site_survey"). */
export const stageKeyOf = (label: string) =>
  label
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 40);

export async function createPipelineStage(
  db: Db,
  input: { label: string; outcome: PipelineStage["outcome"] },
  actor: Actor,
  now: Date,
) {
  const key = stageKeyOf(input.label);
  if (!key) throw new AppError("validation", "Use letters or digits in the name", { field: "label" });
  const [count, taken, last] = await Promise.all([
    db.$count(pipelineStages),
    db.select({ key: pipelineStages.key }).from(pipelineStages).where(eq(pipelineStages.key, key)).get(),
    db
      .select({ p: max(pipelineStages.position) })
      .from(pipelineStages)
      .get(),
  ]);
  if (taken) throw new AppError("conflict", `There is already a stage called “${input.label}”`, { field: "label" });
  if (count >= MAX_STAGES) throw new AppError("validation", `A pipeline has at most ${MAX_STAGES} stages`);
  await runBatch(db, [
    db.insert(pipelineStages).values({ key, label: input.label, outcome: input.outcome, position: (last?.p ?? 0) + 1 }),
    logActivity(db, "create_pipeline_stage", { ...actor, now, details: { key, label: input.label } }),
  ]);
  return key;
}

export async function renamePipelineStage(db: Db, key: string, label: string, actor: Actor, now: Date) {
  const stage = await requireStage(db, key, "key");
  await runBatch(db, [
    db.update(pipelineStages).set({ label }).where(eq(pipelineStages.key, key)),
    logActivity(db, "rename_pipeline_stage", { ...actor, now, details: { key, from: stage.label, to: label } }),
  ]);
}

/** Swaps the stage with its neighbour above (`up`) or below: one place on the board. At an end, nothing moves. */
export async function movePipelineStage(db: Db, key: string, direction: "up" | "down", actor: Actor, now: Date) {
  const stage = await requireStage(db, key, "key");
  const p = pipelineStages.position;
  const neighbour = await db
    .select()
    .from(pipelineStages)
    .where(direction === "up" ? lt(p, stage.position) : gt(p, stage.position))
    .orderBy(direction === "up" ? sql`${p} DESC` : p)
    .limit(1)
    .get();
  if (!neighbour) return false;
  await runBatch(db, [
    db.update(pipelineStages).set({ position: neighbour.position }).where(eq(pipelineStages.key, stage.key)),
    db.update(pipelineStages).set({ position: stage.position }).where(eq(pipelineStages.key, neighbour.key)),
    logActivity(db, "move_pipeline_stage", { ...actor, now, details: { key, direction } }),
  ]);
  return true;
}

/** Removes a stage no contact is in (one seek of contacts_stage_idx); the built-in ones stay. */
export async function deletePipelineStage(db: Db, key: string, actor: Actor, now: Date) {
  const stage = await requireStage(db, key, "key");
  if ((BUILT_IN_STAGES as readonly string[]).includes(key))
    throw new AppError(
      "validation",
      `“${stage.label}” is built in: new contacts start there or move there by themselves`,
    );
  const used = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.stage, key)).limit(1).get();
  if (used) throw new AppError("conflict", `Contacts are in “${stage.label}”: move them to another stage first`);
  // Still empty at the moment of the delete: a contact moved in meanwhile keeps the stage (and the delete is a no-op).
  await runBatch(db, [
    db
      .delete(pipelineStages)
      .where(
        and(eq(pipelineStages.key, key), sql`NOT EXISTS (SELECT 1 FROM ${contacts} WHERE ${contacts.stage} = ${key})`),
      ),
    logActivity(db, "delete_pipeline_stage", { ...actor, now, details: { key, label: stage.label } }),
  ]);
}
