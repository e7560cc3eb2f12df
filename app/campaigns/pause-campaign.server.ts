import { and, eq, sql } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { campaigns } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { TOASTS } from "./campaign-schema";
import { getCampaignRow, publicCampaign, type PublicCampaign } from "./get-campaign.server";
import type { Actor } from "~/lib/actor";

/**
 * running → paused, in O(1): nothing is rewritten here. The send consumer holds (status `held`) every message of a
 * non-running campaign it is handed instead of sending it, and the dispatcher parks due enrolments as `paused`
 * instead of creating their next message. Already-sent messages stay sent. Logs `pause_campaign`.
 */
export async function pauseCampaign(db: Db, id: number, actor: Actor, now: Date): Promise<PublicCampaign> {
  const c = await getCampaignRow(db, id);
  if (c.status !== "running") {
    throw new AppError(
      "conflict",
      c.status === "paused"
        ? "This campaign is already paused"
        : `Only a running campaign can be paused; this one is ${c.status}`,
      { title: TOASTS.pause },
    );
  }
  const t = now.getTime();
  const [updated] = (await runBatch(db, [
    db
      .update(campaigns)
      .set({ status: "paused", updatedAt: now })
      .where(and(eq(campaigns.id, id), eq(campaigns.status, "running"))),
    // Logged only when the transition happened (changes() = the UPDATE just before, same transaction).
    // raw-sql: guarded-insert
    db.run(sql`INSERT INTO activity_log (user_id, action, details, ip_address, created_at)
               SELECT ${actor.userId}, 'pause_campaign', json_object('campaignId', ${id}, 'name', ${c.name}), ${actor.ipAddress}, ${t} WHERE changes() > 0`),
  ])) as D1Result[];
  if ((updated.meta.changes ?? 0) === 0)
    throw new AppError("conflict", "The campaign changed state meanwhile; reload and try again", {
      title: TOASTS.pause,
    });
  return publicCampaign(await getCampaignRow(db, id));
}
