import { desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { linkClicks } from "~/db/schema";

/** The contact page shows the newest few; the rest are in the Message Center per text. */
export const CONTACT_LINK_CLICKS = 10;

/**
 * The links a contact opened in texts (decision 068), last opened first: where each goes, how often, when. Through
 * link_clicks_contact_idx (a contact's own rows, sorted). The caller has checked the viewer may see the contact.
 */
export async function listContactLinkClicks(db: Db, contactId: number) {
  return contactLinkClicksFrom(await contactLinkClicksQuery(db, contactId));
}

/** The rows as the page shows them. */
export function contactLinkClicksFrom(rows: Awaited<ReturnType<typeof contactLinkClicksQuery>>) {
  return rows.map((r) => ({ ...r, lastClickedAt: r.lastClickedAt.toISOString() }));
}

/** The read itself (its plan is tested; the contact page batches it with its own reads). */
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
