import type { HomeUsage } from "./home-usage";
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { BatchItem } from "drizzle-orm/batch";
import { bulkInsertStatements, bulkUpdateStatements, inJson } from "~/db/bulk-update.server";
import { runBatch, type Db } from "~/db/client.server";
import { contacts, suppressions, type ConsentPurpose, type DuplicateMode } from "~/db/schema";
import { isUniquePhoneViolation, type ContactValues } from "./contact-row.server";
import { inScope, type ContactScope } from "./contact-scope.server";

// Rows travel as one bound JSON parameter per statement (json_each), so a chunk of any size stays far inside D1's
// 100-bound-parameter limit; a chunk whose rows are long (1,000 rows of up to ~3,000 characters each) becomes
// several statements of at most ~1 MB each (chunkByBytes; D1 refuses a value over 2 MB) in the same batch.
export const UPSERT_CHUNK = 1000;

export type UpsertCounts = { created: number; updated: number; duplicates: number };

/** `ownerUserId`: the row's own owner (an import's Owner column, decision 050), before the file's. */
type Row = ContactValues & { ownerUserId?: number | null; home?: HomeUsage };

/**
 * Duplicate detection against the database for one chunk: a row whose normalised phone or email already
 * belongs to a contact is a duplicate of it. Two indexed lookups, one bound JSON array each.
 */
async function findExisting(db: Db, rows: Row[]) {
  const phones = rows.map((r) => r.phone);
  const emails = rows.flatMap((r) => (r.email ? [r.email] : []));
  const match = { id: contacts.id, phone: contacts.phone, email: contacts.email, ownerUserId: contacts.ownerUserId };
  const found = await db
    .select(match)
    .from(contacts)
    .where(inJson(contacts.phone, phones))
    .union(db.select(match).from(contacts).where(inJson(contacts.email, emails)));
  type Found = { id: number; ownerUserId: number | null };
  const byPhone = new Map<string, Found>();
  const byEmail = new Map<string, Found>();
  for (const f of found) {
    byPhone.set(f.phone, f);
    if (f.email) byEmail.set(f.email, f);
  }
  return (r: Row) => {
    const p = byPhone.get(r.phone);
    if (p !== undefined) return { ...p, by: "phone" as const };
    const e = r.email ? byEmail.get(r.email) : undefined;
    return e === undefined ? undefined : { ...e, by: "email" as const };
  };
}

/**
 * Plans and writes one chunk in a single D1 batch (one transaction): new rows are inserted, existing ones
 * skipped or merged (non-empty imported fields win) per `mode`. `guard` makes every write conditional
 * (used by staged imports so a redelivered chunk cannot apply twice); `extra` statements commit with it.
 */
export async function upsertContactChunk(
  db: Db,
  rows: Row[],
  opts: {
    mode: DuplicateMode;
    userId: number | null;
    /** The owner every contact written gets (an import's file owner, decision 044); absent = leave owners alone. */
    ownerUserId?: number | null;
    now: Date;
    /** Where these contacts' consent to be contacted comes from (e.g. "csv:leads.csv", "api:bulk"). */
    consentSource?: string;
    /** The import whose consent record covers the contacts it creates (decision 071). */
    consentImportId?: number | null;
    /** "informational" when that consent covers appointment texts only (decision 072); else marketing. */
    consentPurpose?: ConsentPurpose | null;
    /**
     * Whose contacts the writer may update (decision 048): an existing contact outside it is a duplicate, skipped,
     * never merged into — a rep's import or CRM sync does not rewrite another rep's lead. Absent: all.
     */
    scope?: ContactScope;
    guard?: SQL;
    extra?: (counts: UpsertCounts) => BatchItem<"sqlite">[];
  },
): Promise<UpsertCounts> {
  // The plan is made from a read outside the transaction; if another writer takes one of the phones in
  // between, the INSERT fails as a whole (nothing half-written) and the chunk is planned again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await planAndWrite(db, rows, opts);
    } catch (err) {
      if (attempt >= 3 || !isUniquePhoneViolation(err)) throw err;
    }
  }
}

async function planAndWrite(
  db: Db,
  rows: Row[],
  opts: Parameters<typeof upsertContactChunk>[2],
): Promise<UpsertCounts> {
  const existingId = await findExisting(db, rows);
  const toInsert: Row[] = [];
  const toUpdate: (Row & { id: number })[] = [];
  let duplicates = 0;
  const claimed = new Set<number>();
  for (const r of rows) {
    const match = existingId(r);
    if (match === undefined) toInsert.push(r);
    // Update merges only into the contact with the same phone: a shared email (a household) must never hand
    // one person's number, and its opt-out state, to another contact.
    else if (
      opts.mode === "update" &&
      match.by === "phone" &&
      !claimed.has(match.id) &&
      inScope(opts.scope ?? { kind: "all" }, match)
    ) {
      claimed.add(match.id);
      toUpdate.push({ ...r, id: match.id });
    } else duplicates++;
  }
  const guard = opts.guard ?? sql`1`;
  const now = opts.now.getTime();
  const statements: BatchItem<"sqlite">[] = [];
  if (toInsert.length) {
    const inserts = toInsert.map((r) => ({
      ...r,
      sendable: r.sendable ? 1 : 0,
      createdBy: opts.userId,
      ownerUserId: r.ownerUserId ?? opts.ownerUserId ?? null,
      consentSource: opts.consentSource ?? null,
      consentImportId: opts.consentImportId ?? null,
      consentPurpose: opts.consentPurpose === "informational" ? "informational" : null,
      monthlyBillCents: r.home?.monthlyBillCents ?? null,
      monthlyKwh: r.home?.monthlyKwh ?? null,
      utilityName: r.home?.utilityName ?? null,
      now,
    }));
    statements.push(
      ...bulkInsertStatements(contacts, inserts, (j) => ({
        values: {
          firstName: j.firstName,
          lastName: j.lastName,
          phone: j.phone,
          email: j.email,
          company: j.company,
          address: j.address,
          city: j.city,
          state: j.state,
          zipCode: j.zipCode,
          timeZone: j.timeZone,
          sendable: j.sendable,
          unsendableReason: j.unsendableReason,
          consentSource: j.consentSource,
          consentImportId: j.consentImportId,
          consentPurpose: j.consentPurpose,
          consentAt: j.now,
          createdBy: j.createdBy,
          ownerUserId: j.ownerUserId,
          createdAt: j.now,
          updatedAt: j.now,
          customFields: j.customFields,
          monthlyBillCents: j.monthlyBillCents,
          monthlyKwh: j.monthlyKwh,
          utilityName: j.utilityName,
        },
        where: guard,
      })).map((q) => db.run(q)),
    );
    // A number or address that opted out before it became a contact shows as opted out at once.
    statements.push(...optOutFlagStatements(db, toInsert));
  }
  if (toUpdate.length) {
    const updates = toUpdate.map((r) => ({
      ...r,
      ownerUserId: r.ownerUserId ?? null,
      sendable: r.sendable ? 1 : 0,
      monthlyBillCents: r.home?.monthlyBillCents ?? null,
      monthlyKwh: r.home?.monthlyKwh ?? null,
      utilityName: r.home?.utilityName ?? null,
    }));
    statements.push(
      ...bulkUpdateStatements(contacts, updates, (j) => ({
        // Imported fields win when present; empty ones keep what the contact has.
        set: {
          firstName: j.firstName,
          lastName: j.lastName,
          ...keepUnlessGiven(j),
          sendable: j.sendable,
          unsendableReason: j.unsendableReason,
          // Imported custom fields are merged into the contact's (a column left empty keeps its value).
          customFields: sql`CASE WHEN ${j.customFields} IS NULL THEN ${contacts.customFields} ELSE json_patch(coalesce(${contacts.customFields}, '{}'), ${j.customFields}) END`,
          // The row's owner, else the file's when one was chosen, like any other imported field that is present.
          ownerUserId: sql`coalesce(${j.ownerUserId}, ${opts.ownerUserId ? opts.ownerUserId : contacts.ownerUserId})`,
          // The home's figures (decision 074): a filled column wins, an empty one keeps what the contact has.
          monthlyBillCents: sql`coalesce(${j.monthlyBillCents}, ${contacts.monthlyBillCents})`,
          monthlyKwh: sql`coalesce(${j.monthlyKwh}, ${contacts.monthlyKwh})`,
          utilityName: sql`coalesce(${j.utilityName}, ${contacts.utilityName})`,
          updatedAt: now,
        },
        where: sql`${contacts.id} = ${j.id} AND ${guard}`,
      })).map((q) => db.run(q)),
    );
  }
  const counts = { created: toInsert.length, updated: toUpdate.length, duplicates };
  statements.push(...(opts.extra?.(counts) ?? []));
  if (statements.length) await runBatch(db, statements);
  return counts;
}

const KEPT_UNLESS_GIVEN = ["email", "company", "address", "city", "state", "zipCode", "timeZone"] as const;

/**
 * The SET entries for the contact fields an import or a lead overwrites only when it brings a value: each is the
 * new value, or the contact's own when that is null. `given` holds SQL expressions or plain (bound) values.
 */
export function keepUnlessGiven(given: Record<(typeof KEPT_UNLESS_GIVEN)[number], unknown>) {
  return Object.fromEntries(
    KEPT_UNLESS_GIVEN.map((field) => [field, sql`coalesce(${given[field]}, ${contacts[field]})`]),
  ) as Record<(typeof KEPT_UNLESS_GIVEN)[number], SQL>;
}

/** Flags contacts whose phone or email is already on the suppression list (one statement per channel). */
export function optOutFlagStatements(db: Db, rows: { phone: string; email: string | null }[]): BatchItem<"sqlite">[] {
  if (rows.length === 0) return [];
  const phones = rows.map((r) => r.phone);
  const emails = rows.flatMap((r) => (r.email ? [r.email] : []));
  const s = alias(suppressions, "s");
  // Per channel: the listed contacts whose address there is suppressed and not yet flagged take the flag.
  const flag = (
    onChannel: SQL,
    address: typeof contacts.phone | typeof contacts.email,
    values: string[],
    flagged: typeof contacts.optedOutAt | typeof contacts.emailUnsubscribedAt,
    set: { optedOutAt: SQL; optedOutSource: SQL } | { emailUnsubscribedAt: SQL },
  ) =>
    db
      .update(contacts)
      .set(set)
      .from(s)
      .where(and(onChannel, eq(s.address, address), inJson(address, values), isNull(flagged)));
  return [
    flag(sql`${s.channel} = 'sms'`, contacts.phone, phones, contacts.optedOutAt, {
      optedOutAt: sql`${s.createdAt}`,
      optedOutSource: sql`${s.reason}`,
    }),
    flag(sql`${s.channel} = 'email'`, contacts.email, emails, contacts.emailUnsubscribedAt, {
      emailUnsubscribedAt: sql`${s.createdAt}`,
    }),
  ];
}

/** Removes repeats inside one upload (same phone, or same email): the first occurrence wins. */
export function dropInFileDuplicates<T extends { phone: string; email: string | null }>(
  rows: T[],
): { unique: T[]; repeats: number } {
  const phones = new Set<string>();
  const emails = new Set<string>();
  const unique: T[] = [];
  for (const r of rows) {
    if (phones.has(r.phone) || (r.email && emails.has(r.email))) continue;
    phones.add(r.phone);
    if (r.email) emails.add(r.email);
    unique.push(r);
  }
  return { unique, repeats: rows.length - unique.length };
}
