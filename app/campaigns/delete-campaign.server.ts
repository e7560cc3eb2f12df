import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { campaigns } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { getCampaignRow } from "./get-campaign.server";

/** Only a draft can be deleted (nothing was sent yet); steps and enrolments go with it. */
export async function deleteCampaign(db: Db, id: number): Promise<void> {
  const deleted = await db
    .delete(campaigns)
    .where(and(eq(campaigns.id, id), eq(campaigns.status, "draft")))
    .returning({ id: campaigns.id });
  if (deleted.length) return;
  const c = await getCampaignRow(db, id); // 404 when it does not exist
  throw new AppError("conflict", `Only a draft campaign can be deleted; this one is ${c.status}`);
}
