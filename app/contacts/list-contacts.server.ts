import {
  and,
  desc,
  asc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNull,
  lt,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contacts, contactTags, contactTotals, type Contact } from "~/db/schema";
import { ftsQuery } from "~/lib/fts";
import { likeContains, searchText } from "~/lib/search-text";
import { loadContactScope, scopeCondition, type ContactScope, type ContactViewer } from "./contact-scope.server";

export const PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

export type ContactPage = {
  contacts: Contact[];
  /** Keyset cursors (contact ids): `after` pages to older contacts, `before` to newer ones. */
  nextCursor: number | null;
  prevCursor: number | null;
};

/** The owner filter (decision 044): a user's contacts, the unowned ones ("none"), or everyone (undefined). */
export type OwnerFilter = number | "none" | undefined;

/** The filter as a WHERE term: one seek of contacts_owner_idx (owner_user_id, id), newest first. */
export function ownerCondition(owner: OwnerFilter): SQL | undefined {
  if (owner === undefined) return undefined;
  return owner === "none" ? isNull(contacts.ownerUserId) : eq(contacts.ownerUserId, owner);
}

/** One page of the unsearched (or short-term) list: exported so query-plans can check its plan. */
export function selectContactsPage(db: Db, where: SQL | undefined, backwards: boolean, limit: number) {
  return db
    .select()
    .from(contacts)
    .where(where)
    .orderBy(backwards ? asc(contacts.id) : desc(contacts.id))
    .limit(limit);
}

/**
 * One page within a scope (decision 048). "All" is one statement. "Own or unassigned" is two keyset seeks of
 * contacts_owner_idx (owner_user_id = me, owner_user_id IS NULL), each ordered by id and limited, merged here: an OR
 * of the two would make SQLite scan the primary key (or sort), and a page needs at most `limit` rows of each.
 */
export function scopedPageStatements(
  db: Db,
  scope: ContactScope,
  where: SQL | undefined,
  backwards: boolean,
  limit: number,
) {
  if (scope.kind === "all") return [selectContactsPage(db, where, backwards, limit)];
  return [
    selectContactsPage(db, and(where, eq(contacts.ownerUserId, scope.userId)), backwards, limit),
    selectContactsPage(db, and(where, isNull(contacts.ownerUserId)), backwards, limit),
  ];
}

async function scopedPage(db: Db, scope: ContactScope, where: SQL | undefined, backwards: boolean, limit: number) {
  const parts = await Promise.all(scopedPageStatements(db, scope, where, backwards, limit));
  if (parts.length === 1) return parts[0];
  // The two id sets are disjoint (one owner each), so a sort of ≤ 2 × limit rows and a cut is the merge.
  return parts
    .flat()
    .sort((a, b) => (backwards ? a.id - b.id : b.id - a.id))
    .slice(0, limit);
}

/**
 * The FTS walk's scope term: each match's contact is read by primary key and kept if in scope, so the walk still
 * stops once a page is found (decision 048).
 */
export function ftsScopeTerm(scope: ContactScope): SQL {
  if (scope.kind === "all") return sql``;
  return sql`AND EXISTS (SELECT 1 FROM ${contacts} WHERE ${contacts.id} = contacts_fts.rowid AND (${contacts.ownerUserId} IS NULL OR ${contacts.ownerUserId} = ${scope.userId}))`;
}

/**
 * Server-side search and keyset paging, newest first; never loads more than one page. `viewer` (decision 048): the
 * person the list is for, whose scope bounds it — every caller on behalf of a person passes it; without it (the
 * system's own jobs) the list is everyone's.
 */
export async function listContacts(
  db: Db,
  opts: {
    q?: string | null;
    after?: number | null;
    before?: number | null;
    limit?: number;
    owner?: OwnerFilter;
    /** A pipeline stage's contacts only (decision 053): contacts_stage_idx, or contacts_owner_stage_idx in a scope. */
    stage?: string;
    /** A tag's contacts only (decision 073, normalised): walked along contact_tags_tag_idx, newest first. */
    tag?: string;
    viewer?: ContactViewer;
    /** The scope itself, when the caller has it (work done for a user later); else the viewer's. */
    scope?: ContactScope;
  } = {},
): Promise<ContactPage> {
  let scope: ContactScope = opts.scope ?? (opts.viewer ? await loadContactScope(db, opts.viewer) : { kind: "all" });
  if (scope.kind !== "all" && opts.owner !== undefined) {
    // An owner filter inside the scope is already narrower than it; another user's contacts are none of theirs.
    if (opts.owner !== "none" && opts.owner !== scope.userId)
      return { contacts: [], nextCursor: null, prevCursor: null };
    scope = { kind: "all" };
  }
  const owner = ownerCondition(opts.owner);
  const stage = opts.stage ? eq(contacts.stage, opts.stage) : undefined;
  const limit = Math.min(Math.max(opts.limit ?? PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const q = searchText(opts.q);
  const backwards = !opts.after && !!opts.before;
  const cursor: SQL | undefined = opts.after
    ? lt(contacts.id, opts.after)
    : opts.before
      ? gt(contacts.id, opts.before)
      : undefined;

  let rows: Contact[];
  const match = q ? ftsQuery(q) : null;
  if (match) {
    // FTS5 walks its index in rowid order, so ORDER BY rowid + LIMIT stops early even for common terms.
    const idCursor = opts.after
      ? sql`AND rowid < ${opts.after}`
      : opts.before
        ? sql`AND rowid > ${opts.before}`
        : sql``;
    // With an owner filter, the matches are kept to the owner's ids inside the same walk, so paging stays exact.
    const ownerIds = owner ? sql`AND rowid IN (SELECT ${contacts.id} FROM ${contacts} WHERE ${owner})` : sql``;
    // A stage holds most contacts (New), so each match is checked by primary key instead of listing the stage's ids.
    const stageTerm = stage
      ? sql`AND EXISTS (SELECT 1 FROM ${contacts} WHERE ${contacts.id} = contacts_fts.rowid AND ${stage})`
      : sql``;
    // The tag's contacts only: a primary-key seek of contact_tags per match, so the walk still stops at a page.
    const tagTerm = opts.tag
      ? sql`AND EXISTS (SELECT 1 FROM ${contactTags} WHERE ${contactTags.contactId} = contacts_fts.rowid AND ${contactTags.tag} = ${opts.tag})`
      : sql``;
    // contacts_fts is an FTS5 table drizzle does not model.
    // raw-sql: fts-match
    const ids = await db.all<{ id: number }>(
      sql`SELECT rowid AS id FROM contacts_fts WHERE contacts_fts MATCH ${match} ${idCursor} ${ownerIds}
          ${stageTerm} ${tagTerm} ${ftsScopeTerm(scope)} ORDER BY rowid ${backwards ? sql`ASC` : sql`DESC`} LIMIT ${limit + 1}`,
    );
    rows = ids.length
      ? await db
          .select()
          .from(contacts)
          // One JSON parameter, not one per id: D1 caps bound parameters at 100 and a page can hold 1000.
          .where(inArray(contacts.id, sql`(SELECT value FROM json_each(${JSON.stringify(ids.map((r) => r.id))}))`))
          .orderBy(backwards ? asc(contacts.id) : desc(contacts.id))
      : [];
  } else {
    // Short terms (1–2 characters) cannot use trigrams: an index-ordered scan that stops at one page.
    const pattern = likeContains(q);
    // drizzle's like() emits no ESCAPE clause, so the escaped % and _ above need one spelled out.
    const like = (col: SQLWrapper) => sql`${col} LIKE ${pattern} ESCAPE '\\'`;
    const search = q
      ? or(
          like(contacts.firstName),
          like(contacts.lastName),
          like(contacts.phone),
          like(contacts.email),
          like(contacts.company),
        )
      : undefined;
    rows = opts.tag
      ? await selectTagPage(db, opts.tag, and(search, owner, stage, scopeCondition(scope)), opts, backwards, limit + 1)
      : await scopedPage(db, scope, and(search, cursor, owner, stage), backwards, limit + 1);
  }

  const hasMore = rows.length > limit;
  rows = rows.slice(0, limit);
  if (backwards) rows.reverse();
  const first = rows[0]?.id ?? null;
  const last = rows.at(-1)?.id ?? null;
  return {
    contacts: rows,
    nextCursor: (backwards || hasMore) && last !== null ? last : null,
    prevCursor: (!backwards ? Boolean(opts.after) : hasMore) && first !== null ? first : null,
  };
}

/**
 * A tag's contacts, newest first (decision 073): the walk goes along contact_tags_tag_idx (tag, contact id) from the
 * cursor, each contact read by primary key and kept when the other filters hold — the tag's rows, never the table's.
 */
export function selectTagPage(
  db: Db,
  tag: string,
  where: SQL | undefined,
  at: { after?: number | null; before?: number | null },
  backwards: boolean,
  limit: number,
) {
  const cursor = at.after
    ? lt(contactTags.contactId, at.after)
    : at.before
      ? gt(contactTags.contactId, at.before)
      : undefined;
  return db
    .select(getTableColumns(contacts))
    .from(contactTags)
    .innerJoin(contacts, eq(contacts.id, contactTags.contactId))
    .where(and(eq(contactTags.tag, tag), cursor, where))
    .orderBy(backwards ? asc(contactTags.contactId) : desc(contactTags.contactId))
    .limit(limit);
}

/** Total contacts (unfiltered). */
/** The contacts counter's read: trigger-maintained (migration 0009), one row, however many contacts there are. */
export function selectContactTotal(db: Db) {
  return db.select({ n: contactTotals.n }).from(contactTotals).where(eq(contactTotals.id, 1));
}

export async function countContacts(db: Db): Promise<number> {
  const row = await selectContactTotal(db).get();
  return row?.n ?? 0;
}
