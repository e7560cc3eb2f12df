import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { aiClassifications, alerts } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { acknowledged } from "./acknowledge-alert.server";
import { ALERT_NOT_FOUND } from "./alert-schema";

/**
 * A person's mark on the alert's classification (right or wrong). Marking also acknowledges: someone looked.
 * The classifier's own record (ai_classifications, app/ai) carries the mark too when the alert has one.
 */
export async function markAlert(db: Db, id: number, verdict: "right" | "wrong", userId: number, now: Date) {
  const res = await db
    .update(alerts)
    .set({ verdict, ...acknowledged(userId, now) })
    .where(eq(alerts.id, id))
    .returning({ id: alerts.id, classificationId: alerts.classificationId });
  if (!res.length) throw new AppError("not_found", ALERT_NOT_FOUND);
  if (res[0].classificationId !== null) {
    await db
      .update(aiClassifications)
      .set({ markedCorrect: verdict === "right" })
      .where(eq(aiClassifications.id, res[0].classificationId));
  }
  return res[0];
}
