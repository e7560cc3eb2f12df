// Campaign platform variables ({{campaignName}}, {{promoCode}}, {{offerExpiration}}) from the campaign row,
// used by the send pipeline when it renders a campaign message.

const LONG_DATE = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });

/** "2026-12-31" → "December 31, 2026"; anything else is shown as typed. */
export function formatOfferExpiration(v: string | null | undefined): string | null {
  if (!v) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v.trim());
  if (!m) return v;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number.isNaN(d.getTime()) ? v : LONG_DATE.format(d);
}

export function campaignVariableValues(c: { campaignName?: string | null; promoCode?: string | null; offerExpiration?: string | null }) {
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
