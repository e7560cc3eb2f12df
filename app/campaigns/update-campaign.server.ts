import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { campaigns } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { CAMPAIGN_NOT_FOUND, type UpdateCampaignInput } from "./campaign-schema";
import { publicCampaign, type PublicCampaign } from "./get-campaign.server";

/** Name, description, promo code, offer expiration and the stop-on-reply switch; fields left out keep their value. */
export async function updateCampaign(
  db: Db,
  id: number,
  input: UpdateCampaignInput,
  now: Date,
): Promise<PublicCampaign> {
  const set: Partial<typeof campaigns.$inferInsert> = { updatedAt: now };
  if (input.name !== undefined) set.name = input.name;
  if ("description" in input) set.description = input.description ?? null;
  if ("promoCode" in input) set.promoCode = input.promoCode ?? null;
  if ("offerExpiration" in input) set.offerExpiration = input.offerExpiration ?? null;
  if (input.stopOnReply !== undefined) set.stopOnReply = input.stopOnReply;
  const [row] = await db.update(campaigns).set(set).where(eq(campaigns.id, id)).returning();
  if (!row) throw new AppError("not_found", CAMPAIGN_NOT_FOUND);
  return publicCampaign(row);
}
