import { sqliteTable, integer, text } from "drizzle-orm/sqlite-core";

/** What reaching a stage means for the sale (decision 053). */
export const STAGE_OUTCOMES = ["open", "won", "lost"] as const;

/**
 * The pipeline's stages in board order (migration 0063): `key` is what contacts, the API and the code name (it never
 * changes), `label` what the team sees.
 */
export const pipelineStages = sqliteTable("pipeline_stages", {
  key: text("key").primaryKey(),
  label: text("label").notNull(),
  position: integer("position").notNull(),
  outcome: text("outcome", { enum: STAGE_OUTCOMES }).notNull().default("open"),
});

export type PipelineStage = typeof pipelineStages.$inferSelect;
