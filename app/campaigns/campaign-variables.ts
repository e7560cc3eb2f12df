// Campaign platform variables ({{campaignName}}, {{promoCode}}, {{offerExpiration}}) from the campaign row,
// used by the send pipeline when it renders a campaign message (the date's format is the pipeline's, variable-values).
import type { SendHold } from "~/messaging/pipeline-hooks";
import { formatOfferExpiration } from "~/messaging/variable-values";

export function campaignVariableValues(c: {
  campaignName?: string | null;
  promoCode?: string | null;
  offerExpiration?: string | null;
}) {
  return {
    campaignName: c.campaignName ?? null,
    promoCode: c.promoCode ?? null,
    offerExpiration: formatOfferExpiration(c.offerExpiration),
  };
}

/** Campaign message statuses while the campaign is not running: the consumer holds them instead of sending. */
export function holdsCampaignMessages(campaignStatus: string | null | undefined): boolean {
  return campaignStatus === "paused" || campaignStatus === "draft";
}

/** The send consumer's hold for campaigns (registered in app/wiring): a paused or draft campaign's messages wait. */
export const holdPausedCampaignMessages: SendHold = (row) =>
  row.campaignId && holdsCampaignMessages(row.campaignStatus) ? "Held: the campaign is paused" : null;
