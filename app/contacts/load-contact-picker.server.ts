import { z } from "zod";
import type { Db } from "~/db/client.server";
import { zodId } from "~/lib/ids";
import { listContacts } from "./list-contacts.server";
import type { ContactViewer } from "./contact-scope.server";

/** Rows per picker page (the list is height-capped and scrolls). */
export const PICKER_PAGE = 25;
/** Ids a picker carries in its URL/form (no-JS picking across searches and pages): campaigns' MAX_PICKED_CONTACTS; a screen may take fewer. */
export const MAX_PICKER_IDS = 10_000;

/** The picker's URL state: the search, a keyset cursor and the ids picked so far (`contactIds`, kept across searches and pages). */
export function pickerState(params: URLSearchParams) {
  const one = z.object({
    q: z.string().trim().max(200).optional().catch(undefined),
    after: zodId().optional().catch(undefined),
    before: zodId().optional().catch(undefined),
  });
  const { q, after, before } = one.parse(Object.fromEntries(params));
  const picked = [
    ...new Set(
      params
        .getAll("contactIds")
        .map(Number)
        .filter((n) => Number.isSafeInteger(n) && n > 0),
    ),
  ].slice(0, MAX_PICKER_IDS);
  return { q: q ?? "", after, before, picked };
}

export type PickerContact = { id: number; name: string; phone: string; email: string | null; company: string | null };
export type MatchCount = { n: number; more: boolean };

/**
 * One page of the contacts search for the picker (name, phone, email, company — the contacts list's own search and
 * keyset paging), of the contacts the viewer sees (decision 048). `countMatching` (campaigns' "select all matching") adds how many contacts match, from a cheap
 * source; without it `matching` is null. The one loader of both pickers (campaigns, the Testing Playground).
 */
export async function loadContactPicker(
  db: Db,
  state: { q: string; after?: number; before?: number },
  viewer: ContactViewer,
  opts: { countMatching?: (db: Db, q: string, viewer: ContactViewer) => Promise<MatchCount> } = {},
) {
  const [page, matching] = await Promise.all([
    listContacts(db, { q: state.q, after: state.after, before: state.before, limit: PICKER_PAGE, viewer }),
    opts.countMatching ? opts.countMatching(db, state.q, viewer) : Promise.resolve(null),
  ]);
  const contacts: PickerContact[] = page.contacts.map((c) => ({
    id: c.id,
    name: `${c.firstName} ${c.lastName}`.trim(),
    phone: c.phone,
    email: c.email,
    company: c.company,
  }));
  return { q: state.q, contacts, nextCursor: page.nextCursor, prevCursor: page.prevCursor, matching };
}
export type ContactPickerData = Awaited<ReturnType<typeof loadContactPicker>>;
