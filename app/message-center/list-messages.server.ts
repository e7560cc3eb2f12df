import { and, asc, count, desc, eq, lt, max, min, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { contacts, linkClicks, messageCounts, messages, senderPacing } from "~/db/schema";
import { inJson } from "~/db/bulk-update.server";
import { loadContactScope, type ContactScope, type ContactViewer } from "~/contacts/contact-scope.server";
import { extractVariables, renderTemplate } from "../messaging/render";
import { variableSource, variableValues } from "../messaging/variable-values";

import { MESSAGE_TABS, type MessageTab } from "./message-tabs";
import { ftsQuery } from "~/lib/fts";
import { likeContains, searchText } from "~/lib/search-text";
export { MESSAGE_TABS, type MessageTab };
export const MESSAGES_PAGE = 50;
/** 1–2 character searches cannot use the trigram index: they look through the newest 50,000 messages only. */
export const SHORT_SEARCH_WINDOW = 50_000;

export type MessageListItem = {
  id: number;
  content: string;
  phone: string | null;
  email: string | null;
  subject: string | null;
  channel: "sms" | "email";
  kind: string;
  direction: "inbound" | "outbound";
  status: string;
  createdAt: string;
  twilioSid: string | null;
  campaignId: number | null;
  contactId: number | null;
  contactName: string | null;
  errorMessage: string | null;
  isTest: boolean;
  /** Clicks on the text's tracked links (decision 068); 0 for none or an untracked message. */
  linkClicks: number;
};

const TAB_FILTER: Record<MessageTab, SQL> = {
  all: sql`1`,
  incoming: sql`m.direction = 'inbound'`,
  outgoing: sql`m.direction = 'outbound'`,
  // Written as the partial index messages_failed_idx is (an IN list would not match it).
  failed: sql`(m.status = 'failed' OR m.status = 'undelivered')`,
};

/** Staff alert emails are our own mail to the team (Smart Alerts lists them), never a Message Center row. */
const CUSTOMER_MESSAGES = sql`m.kind <> 'alert'`;
/**
 * A standard user's Message Center (decision 052) shows the messages of their own and unowned contacts (and of
 * numbers no contact has). Without an owner on every message row, a page looks through at most this many of the
 * tab's newest messages below the cursor; a page may then hold fewer than 50 and still have older ones after it.
 */
export const SCOPED_WINDOW = 1_000;
/** A name search looks at the messages of at most this many matching contacts (newest contacts first). */
export const NAME_SEARCH_CONTACTS = 50;

const m = alias(messages, "m");
const c = alias(contacts, "c");
/** The row's contact (joined as `c`) is the viewer's, unowned, or absent. */
const visibleTo = (scope: ContactScope): SQL | undefined =>
  scope.kind === "all" ? undefined : sql`(${c.ownerUserId} IS NULL OR ${c.ownerUserId} = ${scope.userId})`;
// The same columns, under the same names, for the FTS walk, the list and the name search.
type Row = Record<string, unknown>;
const BUILDER_COLUMNS = {
  id: m.id,
  content: m.content,
  phone: m.phone,
  email: m.email,
  subject: m.subject,
  channel: m.channel,
  kind: m.kind,
  direction: m.direction,
  status: m.status,
  created_at: m.createdAt,
  twilio_sid: m.twilioSid,
  campaign_id: m.campaignId,
  contact_id: m.contactId,
  error_message: m.errorMessage,
  is_test: m.isTest,
  first_name: c.firstName,
  last_name: c.lastName,
  contact_email: c.email,
  contact_phone: c.phone,
  company: c.company,
  address: c.address,
  city: c.city,
  state: c.state,
  zip_code: c.zipCode,
  custom_fields: c.customFields,
};

/**
 * The messages of the contacts whose name (or number, email, company) matches, newest first, through contacts_fts
 * and messages_contact_thread_idx: a pending bulk row holds its template until it is sent, so the search index
 * cannot know it is "Rosa's" message, and indexing names into every message would cost a write per SMS.
 */
export const nameSearchQuery = (
  db: Db,
  match: string,
  tab: SQL,
  before: number | null | undefined,
  limit: number,
  scope: ContactScope = { kind: "all" },
) =>
  db
    .select(BUILDER_COLUMNS)
    .from(m)
    .leftJoin(c, sql`${c.id} = ${m.contactId}`)
    .where(
      and(
        sql`${m.contactId} IN (SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ${match} ORDER BY rowid DESC LIMIT ${NAME_SEARCH_CONTACTS})`,
        tab,
        CUSTOMER_MESSAGES,
        before ? lt(m.id, before) : undefined,
        visibleTo(scope),
      ),
    )
    .orderBy(desc(m.id))
    .limit(limit);

const PENDING = new Set(["pending", "queued", "sending", "held"]);
const CONTACT_SOURCES = new Set(["contact", "custom"]);

/**
 * What a waiting bulk row will say: its template rendered with the contact's own fields. Tokens from other sources
 * (the sender, the organisation, the campaign, the clock) are filled at send time and stay as written here.
 */
export function pendingPreview(content: string, r: Row): string {
  if (!content.includes("{{")) return content;
  const values = variableValues({
    contact: {
      firstName: r.first_name as string | null,
      lastName: r.last_name as string | null,
      email: r.contact_email as string | null,
      phone: r.contact_phone as string | null,
      company: r.company as string | null,
      address: r.address as string | null,
      city: r.city as string | null,
      state: r.state as string | null,
      zipCode: r.zip_code as string | null,
      customFields: r.custom_fields as string | null,
    },
  });
  for (const name of extractVariables(content)) {
    const source = variableSource(name);
    if (source && !CONTACT_SOURCES.has(source)) values[name] = `{{${name}}}`;
  }
  return renderTemplate(content, values).text;
}

function itemOf(r: Row): MessageListItem {
  const status = r.status as string;
  const content = r.content as string;
  return {
    id: r.id as number,
    content:
      PENDING.has(status) && r.direction === "outbound" && r.first_name != null ? pendingPreview(content, r) : content,
    phone: (r.phone as string) ?? null,
    email: (r.email as string) ?? null,
    subject: (r.subject as string) ?? null,
    channel: r.channel as "sms" | "email",
    kind: r.kind as string,
    direction: r.direction as "inbound" | "outbound",
    status,
    createdAt: new Date(r.created_at as number | Date).toISOString(),
    twilioSid: (r.twilio_sid as string) ?? null,
    campaignId: (r.campaign_id as number) ?? null,
    contactId: (r.contact_id as number) ?? null,
    contactName: r.first_name ? `${r.first_name} ${r.last_name ?? ""}`.trim() : null,
    errorMessage: (r.error_message as string) ?? null,
    isTest: Boolean(r.is_test),
    linkClicks: 0,
  };
}

/** Each message's clicks, summed over its links (its plan is tested: the unique index, never the table). */
export const linkClicksOfQuery = (db: Db, ids: readonly number[]) =>
  db
    .select({ messageId: linkClicks.messageId, clicks: sql<number>`sum(${linkClicks.clicks})` })
    .from(linkClicks)
    .where(inJson(linkClicks.messageId, ids))
    .groupBy(linkClicks.messageId);

/** The page's tracked texts' clicks: one grouped read through link_clicks_message_uq, for the page's outbound SMS. */
async function withLinkClicks(db: Db, items: MessageListItem[]) {
  const ids = items.filter((i) => i.direction === "outbound" && i.channel === "sms").map((i) => i.id);
  if (!ids.length) return items;
  const counts = await linkClicksOfQuery(db, ids);
  const of = new Map(counts.map((c) => [c.messageId, Number(c.clicks)]));
  return items.map((i) => (of.has(i.id) ? { ...i, linkClicks: of.get(i.id)! } : i));
}

/**
 * Newest first, keyset-paged by id (ids grow with time), one page per call, of the messages the viewer sees. Search is
 * case-insensitive on content and matches the phone (SPEC §2), through FTS5 for 3+ characters and a bounded scan
 * below that; 3+ characters also find the messages of contacts whose name matches (nameSearchQuery), merged by id.
 */
export async function listMessages(
  db: Db,
  opts: { viewer: ContactViewer; q?: string | null; tab?: MessageTab; before?: number | null; limit?: number },
) {
  const scope = await loadContactScope(db, opts.viewer);
  const limit = Math.min(Math.max(opts.limit ?? MESSAGES_PAGE, 1), 500);
  const q = searchText(opts.q);
  const match = q ? ftsQuery(q) : null;
  const tab = TAB_FILTER[opts.tab ?? "all"];
  const visible = visibleTo(scope);
  // The name of the contact, also for messages from a number that became a contact later.
  const byPhone = db.select({ id: contacts.id }).from(contacts).where(eq(contacts.phone, m.phone));
  const joinContact = sql`${c.id} = coalesce(${m.contactId}, ${byPhone})`;
  const select = () => db.select(BUILDER_COLUMNS).from(m).leftJoin(c, joinContact);
  let rows: Row[];
  let windowEnd: number | null = null;
  if (match) {
    // The FTS index walks rowids newest first; the tab filter, the scope and the cursor apply inside the same walk.
    const [byText, byName] = await Promise.all([
      select()
        .innerJoin(sql`messages_fts f`, sql`f.rowid = ${m.id}`)
        .where(
          and(
            sql`messages_fts MATCH ${match}`,
            tab,
            CUSTOMER_MESSAGES,
            opts.before ? sql`f.rowid < ${opts.before}` : undefined,
            visible,
          ),
        )
        .orderBy(sql`f.rowid DESC`)
        .limit(limit + 1),
      nameSearchQuery(db, match, tab, opts.before, limit + 1, scope),
    ]);
    const seen = new Set<number>();
    rows = [...byText, ...byName]
      .sort((a, b) => (b.id as number) - (a.id as number))
      .filter((r) => !seen.has(r.id as number) && seen.add(r.id as number))
      .slice(0, limit + 1);
  } else {
    const conditions = and(
      tab,
      CUSTOMER_MESSAGES,
      opts.before ? lt(m.id, opts.before) : undefined,
      q
        ? sql`${m.id} > ${db.select({ id: max(messages.id) }).from(messages)} - ${SHORT_SEARCH_WINDOW} AND (${m.content} LIKE ${likeContains(q)} ESCAPE '\\' OR ${m.phone} LIKE ${likeContains(q)} ESCAPE '\\')`
        : undefined,
    );
    if (!visible || q) {
      // All messages, or a short search (its own window bounds it): the tab's index newest first.
      rows = await select()
        .where(and(conditions, visible))
        .orderBy(desc(m.id))
        .limit(limit + 1);
    } else {
      // A standard user's page: the scope filters a window of the tab's newest SCOPED_WINDOW rows below the cursor.
      // The window is a co-routine under the outer LIMIT: a rep with many messages stops well before its end.
      const win = db.select().from(m).where(conditions).orderBy(desc(m.id)).limit(SCOPED_WINDOW).as("m");
      rows = await db
        .select(BUILDER_COLUMNS)
        .from(win)
        .leftJoin(c, joinContact)
        .where(visible)
        .orderBy(desc(m.id))
        .limit(limit + 1);
      // A short page: the window's oldest row (if the window was full) is where the next page looks on from.
      if (rows.length <= limit)
        windowEnd =
          (
            await db
              .select({ id: m.id })
              .from(m)
              .where(conditions)
              .orderBy(desc(m.id))
              .limit(1)
              .offset(SCOPED_WINDOW - 1)
              .get()
          )?.id ?? null;
    }
  }
  const items = await withLinkClicks(db, rows.slice(0, limit).map(itemOf));
  const nextCursor = rows.length > limit ? items.at(-1)!.id : windowEnd;
  return { messages: items, nextCursor };
}

/** The tab counts' read: the trigger-maintained message_counts (one small read, whatever the volume). */
export function selectMessageCounts(db: Db) {
  return db
    .select({ direction: messageCounts.direction, status: messageCounts.status, n: messageCounts.n })
    .from(messageCounts);
}

type CountRow = { direction: string; status: string; n: number };
export function tabCountsFrom(rows: readonly CountRow[]): Record<MessageTab, number> {
  const sum = (f: (r: CountRow) => boolean) => rows.filter(f).reduce((a, r) => a + r.n, 0);
  return {
    all: sum(() => true),
    incoming: sum((r) => r.direction === "inbound"),
    outgoing: sum((r) => r.direction === "outbound"),
    failed: sum((r) => r.status === "failed" || r.status === "undelivered"),
  };
}

/** Tab counts from the trigger-maintained message_counts table: one small read, whatever the volume. */
export async function messageTabCounts(db: Db): Promise<Record<MessageTab, number>> {
  return tabCountsFrom(await selectMessageCounts(db));
}

/** A tab's count as shown: exact, or (a standard user's, over a busy tab) at least `n`. */
export type TabCount = { n: number; atLeast: boolean };

/**
 * The tab counts the viewer sees. Everyone's: the counters (exact, one small read). A standard user's (decision 052):
 * their visible rows among each tab's newest SCOPED_WINDOW messages — exact while the tab holds no more than that,
 * otherwise a lower bound shown as "n+". Four bounded walks, never the table.
 */
export async function visibleTabCounts(
  db: Db,
  viewer: ContactViewer,
  /** The counters, when the caller read them in a batch of its own. */
  known?: Record<MessageTab, number>,
): Promise<Record<MessageTab, TabCount>> {
  const [scope, totals] = await Promise.all([loadContactScope(db, viewer), known ?? messageTabCounts(db)]);
  const visible = visibleTo(scope);
  if (!visible) return mapTabs((t) => ({ n: totals[t], atLeast: false }));
  const counted = await Promise.all(
    MESSAGE_TABS.map((t) => {
      const win = db
        .select({ contactId: m.contactId, phone: m.phone })
        .from(m)
        .where(and(TAB_FILTER[t], CUSTOMER_MESSAGES))
        .orderBy(desc(m.id))
        .limit(SCOPED_WINDOW)
        .as("w");
      const byPhone = db.select({ id: contacts.id }).from(contacts).where(eq(contacts.phone, win.phone));
      return db
        .select({ n: count() })
        .from(win)
        .leftJoin(c, sql`${c.id} = coalesce(${win.contactId}, ${byPhone})`)
        .where(visible)
        .get()
        .then((r) => r?.n ?? 0);
    }),
  );
  return mapTabs((t, i) => ({ n: counted[i]!, atLeast: totals[t] > SCOPED_WINDOW }));
}

const mapTabs = <T>(f: (t: MessageTab, i: number) => T) =>
  Object.fromEntries(MESSAGE_TABS.map((t, i) => [t, f(t, i)])) as Record<MessageTab, T>;

/**
 * Outbound messages waiting, by step: the counters keep pending, queued and sending as one bucket (the pipeline's own
 * steps write no counter rows, migration 0041), so these are counted on messages_due_idx, which holds only them.
 * Each count stops at 100,000 so a screen never reads more than that.
 */
export function backlogCounts(db: Db) {
  const waiting = (status: "pending" | "queued" | "sending") => {
    // The literal status: the partial index cannot serve a bound one.
    const rows = db
      .select({ one: sql`1` })
      .from(messages)
      .where(sql`${messages.status} = ${sql.raw(`'${status}'`)}`)
      .limit(100_000)
      .as(status);
    return db.select({ status: sql<string>`${status}`.as("status"), n: count() }).from(rows);
  };
  return waiting("pending").unionAll(waiting("queued")).unionAll(waiting("sending"));
}

/**
 * What is waiting to go out and how fast it can: outbound pending (scheduled or deferred by quiet hours /
 * daily cap), queued and in-flight counts, plus each sender's pacing state. All small reads.
 */
export function backlogStatements(db: Db) {
  return [
    backlogCounts(db),
    db.select().from(senderPacing).orderBy(asc(senderPacing.sender)).limit(20),
    db
      .select({ at: min(messages.scheduledAt) })
      .from(messages)
      .where(sql`${messages.status} = 'pending'`),
  ] as const;
}

type BacklogReads = ReturnType<typeof backlogStatements>;
type BacklogRows = readonly [Awaited<BacklogReads[0]>, Awaited<BacklogReads[1]>, Awaited<BacklogReads[2]>];

export function backlogFrom([counts, senders, nextDue]: BacklogRows, now: Date) {
  const n = (s: string) => counts.find((c) => c.status === s)?.n ?? 0;
  const today = now.toISOString().slice(0, 10);
  const at = nextDue[0]?.at;
  return {
    pending: n("pending"),
    queued: n("queued"),
    sending: n("sending"),
    nextScheduledAt: at ? at.toISOString() : null,
    senders: senders.map((s) => ({
      sender: s.sender,
      sentToday: s.day === today ? s.dayCount : 0,
      busyUntil: s.nextSlotMs > now.getTime() ? new Date(s.nextSlotMs).toISOString() : null,
    })),
  };
}
