import { desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { leadConsents } from "~/db/schema";

/** How many of a contact's leads the contact page shows (newest first). */
export const LEAD_CONSENTS_SHOWN = 10;

/**
 * A contact's leads with their consent evidence, newest first (lead_consents_contact_id_idx), for the contact page.
 * Plain strings: the page renders them as text, never as HTML (a vendor's consent text may hold markup). The read
 * is a builder, to ride in the page's batch (loadContactPage); leadConsentsFrom shapes its rows.
 */
export function selectLeadConsents(db: Db, contactId: number) {
  return db
    .select()
    .from(leadConsents)
    .where(eq(leadConsents.contactId, contactId))
    .orderBy(desc(leadConsents.createdAt), desc(leadConsents.id))
    .limit(LEAD_CONSENTS_SHOWN);
}

export function leadConsentsFrom(rows: Awaited<ReturnType<typeof selectLeadConsents>>) {
  return rows.map((r) => ({
    id: r.id,
    source: r.source,
    consentText: r.consentText,
    sellerName: r.sellerName,
    pageUrl: r.pageUrl,
    ipAddress: r.ipAddress,
    consentedAt: r.consentedAt.toISOString(),
    receivedAt: r.createdAt.toISOString(),
  }));
}
