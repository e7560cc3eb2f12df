import { z } from "zod";
import type { Db } from "~/db/client.server";
import type { Contact } from "~/db/schema";
import { countContacts, listContacts, PAGE_SIZE } from "./list-contacts.server";

const cursor = z.coerce.number().int().positive().optional().catch(undefined);
const listQuery = z.object({
  q: z.string().trim().max(200).optional().catch(undefined),
  after: cursor,
  before: cursor,
});
export type ContactListQuery = z.infer<typeof listQuery>;

/** The list page's URL state (?q, ?after, ?before); anything malformed is ignored rather than an error. */
export function contactListQuery(request: Request): ContactListQuery {
  return listQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
}

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

/** One page of the (searched) list; the total is counted only without a search, where it is one cheap COUNT. */
export async function loadContactList(db: Db, query: ContactListQuery) {
  const q = query.q ?? "";
  const [page, total] = await Promise.all([
    listContacts(db, { q, after: query.after, before: query.before, limit: PAGE_SIZE }),
    q ? Promise.resolve(null) : countContacts(db),
  ]);
  return { q, contacts: page.contacts.map(listRow), total, nextCursor: page.nextCursor, prevCursor: page.prevCursor };
}
