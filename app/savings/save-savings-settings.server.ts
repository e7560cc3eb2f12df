import { eq } from "drizzle-orm";
import { activityRow } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { activityLog, orgSettings } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { COST_PER_WATT_KEY, ESCALATION_KEY } from "./savings-data.server";

/**
 * A superuser sets the savings estimate's assumptions (decision 074): the yearly rise in power prices, and the team's
 * installed price per watt (null: Helio's default, said beside every payback). The next message and the contact
 * pages use them; logged as `set_savings_settings`. The bounds are the route's parse.
 */
export async function saveSavingsSettings(
  db: Db,
  next: { escalationPct: number; costPerWatt: number | null },
  actor: Actor,
  now: Date,
) {
  const upsert = (key: string, value: string) =>
    db
      .insert(orgSettings)
      .values({ key, value, updatedAt: now })
      .onConflictDoUpdate({ target: orgSettings.key, set: { value, updatedAt: now } });
  await runBatch(db, [
    upsert(ESCALATION_KEY, String(next.escalationPct)),
    next.costPerWatt === null
      ? db.delete(orgSettings).where(eq(orgSettings.key, COST_PER_WATT_KEY))
      : upsert(COST_PER_WATT_KEY, String(next.costPerWatt)),
    db
      .insert(activityLog)
      .values(
        activityRow("set_savings_settings", { userId: actor.userId, ipAddress: actor.ipAddress, details: next, now }),
      ),
  ]);
}
