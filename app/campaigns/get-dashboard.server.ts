import { desc } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { autoResponders } from "~/db/schema";
import { getStats, type Stats } from "./get-stats.server";
import { listCampaigns } from "./list-campaigns.server";
import type { PublicCampaign } from "./get-campaign.server";

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

/** The Dashboard's data: stat cards, the first 5 campaigns (newest first) and the first 5 auto-responders (newest first). */
export async function getDashboard(db: Db): Promise<Dashboard> {
  const [stats, page, responders] = await Promise.all([
    getStats(db),
    listCampaigns(db, { limit: DASHBOARD_LIMIT }),
    db.select().from(autoResponders).orderBy(desc(autoResponders.id)).limit(DASHBOARD_LIMIT),
  ]);
  return {
    stats,
    campaigns: page.items,
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
