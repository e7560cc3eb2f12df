import { inArray } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { orgSettings } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { PAUSE_FILTERED_KEY, PAUSE_PERCENT_KEY, pauseThresholdFrom, type PauseThreshold } from "./carrier-filtering";

/** The autopilot's thresholds for the Compliance card: two primary-key reads. */
export async function loadPauseThreshold(db: Db): Promise<PauseThreshold> {
  return pauseThresholdFrom(
    await db
      .select({ key: orgSettings.key, value: orgSettings.value })
      .from(orgSettings)
      .where(inArray(orgSettings.key, [PAUSE_FILTERED_KEY, PAUSE_PERCENT_KEY])),
  );
}

/**
 * A superuser sets when the autopilot pauses a sending number (decision 065's addendum): the texts filtered in a day
 * (0 never pauses) and their share of the day's texts. Applies from the next filtered text; a paused number stays
 * paused until resumed. Logged as `set_autopilot_threshold`.
 */
export async function savePauseThreshold(db: Db, t: PauseThreshold, actor: Actor, now: Date) {
  await runBatch(db, [
    ...[
      { key: PAUSE_FILTERED_KEY, value: String(t.filtered) },
      { key: PAUSE_PERCENT_KEY, value: String(t.percent) },
    ].map((row) =>
      db
        .insert(orgSettings)
        .values({ ...row, updatedAt: now })
        .onConflictDoUpdate({ target: orgSettings.key, set: { value: row.value, updatedAt: now } }),
    ),
    logActivity(db, "set_autopilot_threshold", {
      ...actor,
      details: { filtered: t.filtered, percent: t.percent },
      now,
    }),
  ]);
}
