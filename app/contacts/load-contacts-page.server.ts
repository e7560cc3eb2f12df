import type { Db } from "~/db/client.server";
import type { Contact } from "~/db/schema";
import { countContacts, listContacts, PAGE_SIZE } from "./list-contacts.server";
import { publicContact } from "./public-contact.server";

export type ContactListQuery = { q?: string; after?: number; before?: number };

function listRow(c: Contact) {
  const { id, firstName, lastName, phone, email, company, sendable, unsendableReason, optedOut } = publicContact(c);
  const stateZip = [c.state, c.zipCode].filter(Boolean).join(" ");
  const location = [c.city, stateZip].filter(Boolean).join(", ") || c.address || "";
  return { id, firstName, lastName, phone, email, company, location, sendable, unsendableReason, optedOut };
}

/** The Contacts screen: one page of the (searched) list as table rows; the total is counted only without a search, where it is one cheap COUNT. */
export async function loadContactsPage(db: Db, query: ContactListQuery) {
  const q = query.q ?? "";
  const [page, total] = await Promise.all([
    listContacts(db, { q, after: query.after, before: query.before, limit: PAGE_SIZE }),
    q ? Promise.resolve(null) : countContacts(db),
  ]);
  return { q, contacts: page.contacts.map(listRow), total, nextCursor: page.nextCursor, prevCursor: page.prevCursor };
}
