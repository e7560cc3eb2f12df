import { sql } from "drizzle-orm";
import { bulkInsertSql } from "~/db/bulk-update.server";
import type { Db } from "~/db/client.server";
import { campaignEnrollments, contacts } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { getCampaignRow, publicCampaign, type PublicCampaign } from "./get-campaign.server";
import { firstStepAnchor } from "./start-campaign.server";
import { loadContactScope, scopeCondition, type ContactViewer } from "~/contacts/contact-scope.server";

/**
 * Adds picked contacts to a campaign; they start at step 1. In a running campaign they are due at once (or at the
 * scheduled start); in a draft or paused one they wait for start/resume. Contacts already enrolled are left alone,
 * and so are contacts outside the viewer's scope (decision 048), as if they did not exist; no viewer: the system's.
 */
export async function addCampaignContacts(
  db: Db,
  id: number,
  contactIds: number[],
  now: Date,
  viewer?: ContactViewer,
): Promise<{ added: number; campaign: PublicCampaign }> {
  const scope = viewer ? scopeCondition(await loadContactScope(db, viewer)) : undefined;
  const c = await getCampaignRow(db, id);
  if (c.status === "completed") throw new AppError("conflict", "A completed campaign cannot take new contacts");
  const t = now.getTime();
  const running = c.status === "running";
  const anchor = running ? firstStepAnchor(c, now) : null;
  // RETURNING, not meta.changes: D1 counts the rows the counter triggers touch as changes too.
  const added = await db.all(
    bulkInsertSql(
      campaignEnrollments,
      [...new Set(contactIds)].map((contactId) => ({ contactId })),
      (j) => ({
        values: {
          campaignId: id,
          contactId: j.contactId,
          status: running ? "active" : "paused",
          nextStepNumber: 1,
          nextRunAt: anchor,
          anchorAt: anchor,
          createdAt: t,
          updatedAt: t,
        },
        // Contacts that still exist (a primary-key lookup each).
        where: sql`EXISTS (SELECT 1 FROM ${contacts} WHERE ${contacts.id} = ${j.contactId}${scope ? sql` AND ${scope}` : sql``})`,
        onConflict: sql`ON CONFLICT (${campaignEnrollments.campaignId}, ${campaignEnrollments.contactId}) DO NOTHING`,
        returning: sql`${campaignEnrollments.id}`,
      }),
    ),
  );
  return { added: added.length, campaign: publicCampaign(await getCampaignRow(db, id)) };
}
