import { desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contactImports, contacts, leadConsents } from "~/db/schema";
import { consentPurposeOf } from "./consent-purpose";

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

/**
 * The consent record of the imported list that brought the contact in (decision 071): the import by primary key, found
 * through the contact's own row — one statement, so it rides in the same batch. No row when the file had none.
 */
export function selectImportConsent(db: Db, contactId: number) {
  return db
    .select({
      id: contactImports.id,
      fileName: contactImports.fileName,
      seller: contactImports.consentSeller,
      text: contactImports.consentText,
      purpose: contactImports.consentPurpose,
      at: contacts.consentAt,
      createdAt: contactImports.createdAt,
    })
    .from(contacts)
    .innerJoin(contactImports, eq(contactImports.id, contacts.consentImportId))
    .where(eq(contacts.id, contactId))
    .limit(1);
}

/** The contact's consent records for the page, newest first: the leads', then the imported list's (the first). */
export function leadConsentsFrom(
  rows: Awaited<ReturnType<typeof selectLeadConsents>>,
  lists: Awaited<ReturnType<typeof selectImportConsent>> = [],
) {
  const list = lists.map((l) => ({
    key: `list-${l.id}`,
    source: `csv:${l.fileName}`,
    consentText: l.text,
    sellerName: l.seller,
    pageUrl: null,
    ipAddress: null,
    purpose: consentPurposeOf(l.purpose),
    consentedAt: (l.at ?? l.createdAt).toISOString(),
    receivedAt: l.createdAt.toISOString(),
  }));
  return [...rows.map(leadRow), ...list];
}

function leadRow(r: Awaited<ReturnType<typeof selectLeadConsents>>[number]) {
  return {
    key: `lead-${r.id}`,
    source: r.source,
    consentText: r.consentText,
    sellerName: r.sellerName,
    pageUrl: r.pageUrl,
    ipAddress: r.ipAddress,
    purpose: consentPurposeOf(r.purpose),
    consentedAt: r.consentedAt.toISOString(),
    receivedAt: r.createdAt.toISOString(),
  };
}
