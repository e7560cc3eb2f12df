import { and, count, or, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { contacts } from "~/db/schema";
import { countContacts } from "~/contacts/list-contacts.server";
import { loadContactScope, scopeCondition, type ContactViewer } from "~/contacts/contact-scope.server";
import { ftsQuery } from "~/lib/fts";
import { likeContains, searchText } from "~/lib/search-text";

/** "Select all N matching": a search's count stops here and reads "more than 1,000". */
export const MATCH_COUNT_CAP = 1000;

/**
 * How many contacts "select all matching" would enrol, from a cheap source: the trigger-maintained total for no
 * search (one row), else the contacts search (the same FTS / short-term LIKE as the list and the enrolment job)
 * counted up to MATCH_COUNT_CAP + 1 rows — never an unbounded COUNT. A standard user's count is of the contacts they
 * see (decision 048), as the enrolment enrols: the same walks with the scope inside, capped the same way.
 */
export async function countMatchingContacts(
  db: Db,
  q: string | null | undefined,
  viewer?: ContactViewer,
): Promise<{ n: number; more: boolean }> {
  const scope = viewer ? scopeCondition(await loadContactScope(db, viewer)) : undefined;
  const s = searchText(q);
  const limit = MATCH_COUNT_CAP + 1;
  if (!s && !scope) return { n: await countContacts(db), more: false };
  const match = s ? ftsQuery(s) : null;
  let row: { n: number } | undefined;
  if (!s) {
    const mine = db.select({ id: contacts.id }).from(contacts).where(scope).limit(limit).as("mine");
    row = await db.select({ n: count() }).from(mine).get();
  } else if (match) {
    // contacts_fts is an FTS5 table drizzle does not model.
    // raw-sql: fts-match
    row = await db.get<{ n: number }>(
      scope
        ? sql`SELECT count(*) AS n FROM (SELECT f.rowid FROM contacts_fts f JOIN ${contacts} ON ${contacts.id} = f.rowid WHERE contacts_fts MATCH ${match} AND ${scope} LIMIT ${limit})`
        : sql`SELECT count(*) AS n FROM (SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ${match} LIMIT ${limit})`,
    );
  } else {
    const p = likeContains(s);
    const like = (column: SQLiteColumn) => sql`${column} LIKE ${p} ESCAPE '\\'`;
    const found = db
      .select({ id: contacts.id })
      .from(contacts)
      .where(
        and(
          or(
            like(contacts.firstName),
            like(contacts.lastName),
            like(contacts.phone),
            like(contacts.email),
            like(contacts.company),
          ),
          scope,
        ),
      )
      .limit(limit)
      .as("found");
    row = await db.select({ n: count() }).from(found).get();
  }
  const n = row?.n ?? 0;
  return n > MATCH_COUNT_CAP ? { n: MATCH_COUNT_CAP, more: true } : { n, more: false };
}
