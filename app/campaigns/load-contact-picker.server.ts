import { z } from "zod";
import type { Db } from "~/db/client.server";
import { listContacts } from "~/contacts/list-contacts.server";
import { zodId } from "~/lib/ids";
import { MAX_PICKED_CONTACTS } from "./campaign-schema";
import { countMatchingContacts } from "./count-matching-contacts.server";

/** Rows per picker page (the list is height-capped and scrolls). */
export const PICKER_PAGE = 25;

/** The picker's URL state: the search, a keyset cursor and the ids picked so far (kept across searches and pages). */
export function pickerState(params: URLSearchParams) {
  const one = z.object({
    q: z.string().trim().max(200).optional().catch(undefined),
    after: zodId().optional().catch(undefined),
    before: zodId().optional().catch(undefined),
  });
  const { q, after, before } = one.parse(Object.fromEntries(params));
  const picked = [...new Set(params.getAll("contactIds").map(Number).filter((n) => Number.isSafeInteger(n) && n > 0))].slice(0, MAX_PICKED_CONTACTS);
  return { q: q ?? "", after, before, picked };
}

export type PickerContact = { id: number; name: string; phone: string; email: string | null; company: string | null };

/**
 * One page of the contacts search for the picker (name, phone, email, company — the contacts list's own search and
 * keyset paging) and how many contacts match, from a cheap source (countMatchingContacts).
 */
export async function loadContactPicker(db: Db, state: { q: string; after?: number; before?: number }) {
  const [page, matching] = await Promise.all([
    listContacts(db, { q: state.q, after: state.after, before: state.before, limit: PICKER_PAGE }),
    countMatchingContacts(db, state.q),
  ]);
  const contacts: PickerContact[] = page.contacts.map((c) => ({ id: c.id, name: `${c.firstName} ${c.lastName}`, phone: c.phone, email: c.email, company: c.company }));
  return { q: state.q, contacts, nextCursor: page.nextCursor, prevCursor: page.prevCursor, matching };
}
export type ContactPickerData = Awaited<ReturnType<typeof loadContactPicker>>;
