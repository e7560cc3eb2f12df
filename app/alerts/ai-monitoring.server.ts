import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { AppError } from "~/lib/app-error";

export const CLASSIFICATION_NOT_FOUND = "Classification not found";
export const RECENT_CLASSIFICATIONS = 25;

export type RecentClassification = {
  id: number;
  textPreview: string;
  intent: string;
  sentiment: string;
  confidence: number;
  analysisMs: number;
  provider: string;
  createdAt: number;
  markedCorrect: number | null;
};

/** What the classifier saw most recently (ai_classifications_created_at_idx), newest first. */
export function listRecentClassifications(db: Db, limit = RECENT_CLASSIFICATIONS) {
  return db.all<RecentClassification>(sql`
    SELECT id, text_preview AS textPreview, intent, sentiment, confidence, analysis_ms AS analysisMs, provider,
      created_at AS createdAt, marked_correct AS markedCorrect
    FROM ai_classifications ORDER BY created_at DESC, id DESC LIMIT ${Math.min(limit, 100)}`);
}

/**
 * A person's right/wrong mark on a classification (the accuracy figure reads these). An alert raised from it
 * carries the same verdict, so the bell's list and this screen agree.
 */
export async function markClassification(db: Db, id: number, verdict: "right" | "wrong") {
  const res = await db.all<{ id: number }>(sql`
    UPDATE ai_classifications SET marked_correct = ${verdict === "right" ? 1 : 0} WHERE id = ${id} RETURNING id`);
  if (!res.length) throw new AppError("not_found", CLASSIFICATION_NOT_FOUND);
  await db.run(sql`UPDATE alerts SET verdict = ${verdict} WHERE classification_id = ${id}`);
}
