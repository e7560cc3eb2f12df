import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { countContacts } from "~/contacts/list-contacts.server";
import { ftsQuery } from "~/lib/fts";
import { likeContains, searchText } from "~/lib/search-text";

/** "Select all N matching": a search's count stops here and reads "more than 1,000". */
export const MATCH_COUNT_CAP = 1000;

/**
 * How many contacts "select all matching" would enrol, from a cheap source: the trigger-maintained total for no
 * search (one row), else the contacts search (the same FTS / short-term LIKE as the list and the enrolment job)
 * counted up to MATCH_COUNT_CAP + 1 rows — never an unbounded COUNT.
 */
export async function countMatchingContacts(db: Db, q: string | null | undefined): Promise<{ n: number; more: boolean }> {
  const s = searchText(q);
  if (!s) return { n: await countContacts(db), more: false };
  const match = ftsQuery(s);
  const limit = MATCH_COUNT_CAP + 1;
  let row: { n: number } | undefined;
  if (match) {
    row = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM (SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ${match} LIMIT ${limit})`);
  } else {
    const p = likeContains(s);
    row = await db.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM (SELECT id FROM contacts WHERE first_name LIKE ${p} ESCAPE '\\' OR last_name LIKE ${p} ESCAPE '\\'
          OR phone LIKE ${p} ESCAPE '\\' OR email LIKE ${p} ESCAPE '\\' OR company LIKE ${p} ESCAPE '\\' LIMIT ${limit})`,
    );
  }
  const n = row?.n ?? 0;
  return n > MATCH_COUNT_CAP ? { n: MATCH_COUNT_CAP, more: true } : { n, more: false };
}
