import { desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { linkClicks } from "~/db/schema";

/** The contact page shows the newest few; the rest are in the Message Center per text. */
export const CONTACT_LINK_CLICKS = 10;

/** The rows as the contact page shows them. */
export function contactLinkClicksFrom(rows: Awaited<ReturnType<typeof contactLinkClicksQuery>>) {
  return rows.map((r) => ({ ...r, lastClickedAt: r.lastClickedAt.toISOString() }));
}

/**
 * The links a contact opened in texts (decision 068), last opened first: where each goes, how often, when. Through
 * link_clicks_contact_idx (a contact's own rows, sorted; its plan is tested). The contact page runs it in its own
 * batch and uses the rows only once the viewer's scope check passed.
 */
export function contactLinkClicksQuery(db: Db, contactId: number) {
  return db
    .select({
      id: linkClicks.id,
      messageId: linkClicks.messageId,
      url: linkClicks.url,
      clicks: linkClicks.clicks,
      lastClickedAt: linkClicks.lastClickedAt,
    })
    .from(linkClicks)
    .where(eq(linkClicks.contactId, contactId))
    .orderBy(desc(linkClicks.lastClickedAt))
    .limit(CONTACT_LINK_CLICKS);
}
