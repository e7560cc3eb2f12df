import { desc } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { autoResponders, campaigns } from "~/db/schema";
import { statsFrom, statsStatements, type Stats } from "./get-stats.server";
import { publicCampaign, type PublicCampaign } from "./get-campaign.server";

/** SPEC §9: dashboard lists show 5 items; the responder preview is cut at 50 characters. */
export const DASHBOARD_LIMIT = 5;
export const RESPONSE_PREVIEW = 50;

export type DashboardResponder = {
  id: number;
  name: string;
  keyword: string;
  isActive: boolean;
  responsePreview: string;
};
export type Dashboard = { stats: Stats; campaigns: PublicCampaign[]; autoResponders: DashboardResponder[] };

/**
 * The Dashboard's data: stat cards, the first 5 campaigns (newest first) and the first 5 auto-responders (newest
 * first). One D1 batch: four reads, one round trip (decision 062).
 */
export async function getDashboard(db: Db): Promise<Dashboard> {
  const [counts, totals, newest, responders] = await db.batch([
    ...statsStatements(db),
    db.select().from(campaigns).orderBy(desc(campaigns.id)).limit(DASHBOARD_LIMIT),
    db.select().from(autoResponders).orderBy(desc(autoResponders.id)).limit(DASHBOARD_LIMIT),
  ]);
  return {
    stats: statsFrom(counts, totals),
    campaigns: newest.map(publicCampaign),
    autoResponders: responders.map((r) => {
      const primary = typeof r.responses?.primary === "string" ? r.responses.primary : "";
      return {
        id: r.id,
        name: r.name,
        keyword: r.keyword,
        isActive: r.isActive,
        responsePreview: primary.slice(0, RESPONSE_PREVIEW),
      };
    }),
  };
}
