import { desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { aiClassifications, alerts } from "~/db/schema";
import { epochMs, storedBit } from "~/db/stored-values.server";
import { AppError } from "~/lib/app-error";

export const CLASSIFICATION_NOT_FOUND = "Classification not found";
export const RECENT_CLASSIFICATIONS = 25;

export type RecentClassification = Awaited<ReturnType<typeof listRecentClassifications>>[number];

/** What the classifier saw most recently (ai_classifications_created_at_idx), newest first. */
export function listRecentClassifications(db: Db, limit = RECENT_CLASSIFICATIONS) {
  const c = aiClassifications;
  return db
    .select({
      id: c.id,
      textPreview: c.textPreview,
      intent: c.intent,
      sentiment: c.sentiment,
      confidence: c.confidence,
      analysisMs: c.analysisMs,
      provider: c.provider,
      createdAt: epochMs(c.createdAt),
      markedCorrect: storedBit(c.markedCorrect),
    })
    .from(c)
    .orderBy(desc(c.createdAt), desc(c.id))
    .limit(Math.min(limit, 100));
}

/**
 * A person's right/wrong mark on a classification (the accuracy figure reads these). An alert raised from it
 * carries the same verdict, so the bell's list and this screen agree.
 */
export async function markClassification(db: Db, id: number, verdict: "right" | "wrong") {
  const res = await db
    .update(aiClassifications)
    .set({ markedCorrect: verdict === "right" })
    .where(eq(aiClassifications.id, id))
    .returning({ id: aiClassifications.id });
  if (!res.length) throw new AppError("not_found", CLASSIFICATION_NOT_FOUND);
  await db.update(alerts).set({ verdict }).where(eq(alerts.classificationId, id));
}
