import type { Db } from "~/db/client.server";
import { pushPreferences } from "~/db/schema";

export type PushPreferences = { hotLeads: boolean; replies: boolean };

/** The user's choice of what is pushed to their phones (and, for hot leads, texted when no phone has push). */
export async function updatePushPreferences(db: Db, userId: number, prefs: PushPreferences, now: Date) {
  await db
    .insert(pushPreferences)
    .values({ userId, ...prefs, updatedAt: now })
    .onConflictDoUpdate({ target: pushPreferences.userId, set: { ...prefs, updatedAt: now } });
}
