import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { AppError } from "~/lib/app-error";
import { getCampaignRow, publicCampaign, type PublicCampaign } from "./get-campaign.server";
import { firstStepAnchor } from "./start-campaign.server";

/**
 * Adds picked contacts to a campaign; they start at step 1. In a running campaign they are due at once (or at the
 * scheduled start); in a draft or paused one they wait for start/resume. Contacts already enrolled are left alone.
 */
export async function addCampaignContacts(db: Db, id: number, contactIds: number[], now: Date): Promise<{ added: number; campaign: PublicCampaign }> {
  const c = await getCampaignRow(db, id);
  if (c.status === "completed") throw new AppError("conflict", "A completed campaign cannot take new contacts");
  const t = now.getTime();
  const running = c.status === "running";
  const anchor = running ? firstStepAnchor(c, now) : null;
  // RETURNING, not meta.changes: D1 counts the rows the counter triggers touch as changes too.
  const added = await db.all<{ id: number }>(sql`
    INSERT INTO campaign_enrollments (campaign_id, contact_id, status, next_step_number, next_run_at, anchor_at, created_at, updated_at)
    SELECT ${id}, c.id, ${running ? "active" : "paused"}, 1, ${anchor}, ${anchor}, ${t}, ${t}
    FROM contacts c WHERE c.id IN (SELECT value FROM json_each(${JSON.stringify([...new Set(contactIds)])}))
    ON CONFLICT(campaign_id, contact_id) DO NOTHING
    RETURNING id`);
  return { added: added.length, campaign: publicCampaign(await getCampaignRow(db, id)) };
}
