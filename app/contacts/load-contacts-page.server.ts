import type { Db } from "~/db/client.server";
import type { Contact } from "~/db/schema";
import { countContacts, listContacts, PAGE_SIZE } from "./list-contacts.server";

export type ContactListQuery = { q?: string; after?: number; before?: number };

function listRow(c: Contact) {
  const stateZip = [c.state, c.zipCode].filter(Boolean).join(" ");
  return {
    id: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    phone: c.phone,
    email: c.email,
    company: c.company,
    location: [c.city, stateZip].filter(Boolean).join(", ") || c.address || "",
    sendable: c.sendable,
    unsendableReason: c.unsendableReason,
    optedOut: c.optedOutAt !== null,
  };
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
