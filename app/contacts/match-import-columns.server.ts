import { and, asc, desc, eq, gt, notInArray, sql } from "drizzle-orm";
import { bulkInsertStatements } from "~/db/bulk-update.server";
import { runBatch, type Db } from "~/db/client.server";
import { contactImportRows, contactImports, importColumnMaps } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { guessColumns, headerKey, isColumnTarget, NO_PHONE_COLUMN, type ColumnMap } from "./column-aliases";
import { contactRowReader, type ImportRow } from "./csv-import";
import { getContactImport } from "./get-contact-import.server";
import { countExistingContacts } from "./count-existing-contacts.server";
import { dropInFileDuplicates } from "./upsert-contacts.server";
import { importOwnerResolver } from "./resolve-import-owners.server";
import type { Role } from "~/db/schema";

/** Header sets remembered at most (the most recently used): a team's handful of CRMs, with room to spare. */
export const REMEMBERED_HEADER_SETS = 50;
const READ_PAGE = 5000; // raw rows per SELECT while matching
const STAGE_CHUNK = 2000;
const KEEP_ERRORS = 100;
const SAMPLE_ROWS = 3;
export const COLUMNS_ALREADY_MATCHED = "This file's columns are already matched.";

/** The key a header set is remembered by: SHA-256 of its normalised cells ("First Name" and "first_name" are one). */
export async function headerHash(header: readonly string[]): Promise<string> {
  const bytes = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(JSON.stringify(header.map((h) => headerKey(String(h ?? ""))))),
  );
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A remembered mapping is used only when it still fits the header (same width, known targets). */
function usable(columns: unknown, width: number): ColumnMap | null {
  if (!Array.isArray(columns) || columns.length !== width) return null;
  return columns.every((c) => c === null || isColumnTarget(c)) ? (columns as ColumnMap) : null;
}

/** The first rows of a "mapping" import: its header (row 1) and a few records to show beside each column. */
async function firstRawRows(db: Db, importId: number, limit: number) {
  const rows = await db
    .select({ data: contactImportRows.data })
    .from(contactImportRows)
    .where(eq(contactImportRows.importId, importId))
    .orderBy(asc(contactImportRows.id))
    .limit(limit);
  return rows.map((r) => JSON.parse(r.data) as string[]);
}

/**
 * What the Match columns step shows for an import waiting on it: each column's header, a few sample values, and
 * the target pre-selected — the mapping last chosen for the same header set, else the alias table's guess.
 */
export async function loadColumnMatch(db: Db, importId: number) {
  const [header = [], ...samples] = await firstRawRows(db, importId, 1 + SAMPLE_ROWS);
  const remembered = await db
    .select({ columns: importColumnMaps.columns })
    .from(importColumnMaps)
    .where(eq(importColumnMaps.headerHash, await headerHash(header)))
    .get();
  const known = usable(remembered?.columns, header.length);
  const selected = known ?? guessColumns(header);
  return {
    remembered: known !== null,
    columns: header.map((name, i) => ({
      name,
      target: selected[i],
      samples: samples.map((s) => String(s[i] ?? "")).filter((v) => v.trim()),
    })),
    noPhone: !selected.includes("phone"),
  };
}

/**
 * The Match columns step (decision 024): reads the import's raw rows with the chosen mapping and the import's
 * rules (the same reader as every importer), and in ONE D1 batch replaces them with the valid, de-duplicated
 * contacts, sets the counts and "staged" (the preview), and remembers the mapping for the header set (the 50 most
 * recently used are kept). Every write is conditional on the import still being "mapping", so a second submission
 * changes nothing. Refuses a mapping with no phone column.
 */
export async function matchImportColumns(
  db: Db,
  input: { id: number; userId: number; role?: Role; columns: readonly string[] },
  now: Date,
) {
  const imp = await getContactImport(db, input.id, input.userId);
  if (imp.status !== "mapping") throw new AppError("conflict", COLUMNS_ALREADY_MATCHED);

  // Page through the raw rows by id; the first is the header.
  let header: string[] | null = null;
  let reader: ReturnType<typeof contactRowReader> = null;
  let columns: ColumnMap = [];
  const rows: ImportRow[] = [];
  const errors: string[] = [];
  let errorCount = 0;
  let totalRows = 0;
  for (let after = 0; ; ) {
    const page = await db
      .select({ id: contactImportRows.id, rowNumber: contactImportRows.rowNumber, data: contactImportRows.data })
      .from(contactImportRows)
      .where(and(eq(contactImportRows.importId, imp.id), gt(contactImportRows.id, after)))
      .orderBy(asc(contactImportRows.id))
      .limit(READ_PAGE);
    for (const r of page) {
      const cells = JSON.parse(r.data) as unknown;
      if (!Array.isArray(cells)) continue; // already turned into contacts by another submission
      if (!header) {
        header = cells.map((c) => String(c ?? ""));
        columns = header.map((_, i) =>
          isColumnTarget(input.columns[i]) ? (input.columns[i] as ColumnMap[number]) : null,
        );
        if (!columns.includes("phone")) throw new AppError("validation", NO_PHONE_COLUMN, { field: "columns" });
        // An Owner column: the active users are read once for the whole file (decision 050).
        const owners = columns.includes("owner") ? await importOwnerResolver(db, input) : undefined;
        reader = contactRowReader(header, { columns, owners });
        continue;
      }
      totalRows++;
      const result = reader!(
        cells.map((c) => String(c ?? "")),
        r.rowNumber,
      );
      if ("errors" in result) {
        errorCount += result.errors.length;
        for (const e of result.errors) if (errors.length < KEEP_ERRORS) errors.push(e);
      } else rows.push(result.row);
    }
    if (page.length < READ_PAGE) break;
    after = page[page.length - 1].id;
  }
  if (!header) throw new AppError("conflict", COLUMNS_ALREADY_MATCHED);

  const rejectedRows = totalRows - rows.length;
  const { unique, repeats } = dropInFileDuplicates(rows);
  rows.length = 0;
  const stillMapping = sql`EXISTS (SELECT 1 FROM contact_imports WHERE id = ${imp.id} AND status = 'mapping')`;
  const staged = function* () {
    for (let i = 0; i < unique.length; i++) {
      const { rowNumber, ...data } = unique[i];
      unique[i] = undefined as never;
      yield { n: rowNumber, d: JSON.stringify(data) };
    }
  };
  const validRows = unique.length;
  const ownerRows = unique.reduce((n, r) => n + (r.ownerUserId ? 1 : 0), 0);
  const existing = await countExistingContacts(db, unique);
  const hash = await headerHash(header);
  await runBatch(db, [
    db.delete(contactImportRows).where(and(eq(contactImportRows.importId, imp.id), stillMapping)),
    ...bulkInsertStatements(
      contactImportRows,
      staged(),
      (j) => ({ values: { importId: imp.id, rowNumber: j.n, data: j.d }, where: stillMapping }),
      {
        maxRows: STAGE_CHUNK,
      },
    ).map((q) => db.run(q)),
    db
      .update(contactImports)
      .set({
        status: "staged",
        totalRows,
        validRows,
        errorCount,
        rejectedRows,
        fileDuplicates: repeats,
        errors,
        ownerRows,
        ...existing,
        updatedAt: now,
      })
      .where(and(eq(contactImports.id, imp.id), eq(contactImports.status, "mapping"))),
    db
      .insert(importColumnMaps)
      .values({ headerHash: hash, columns, usedAt: now })
      .onConflictDoUpdate({
        target: importColumnMaps.headerHash,
        set: { columns: sql`excluded.columns`, usedAt: sql`excluded.used_at` },
      }),
    // Bounded: at most REMEMBERED_HEADER_SETS + 1 rows are ever read here.
    db
      .delete(importColumnMaps)
      .where(
        notInArray(
          importColumnMaps.headerHash,
          db
            .select({ headerHash: importColumnMaps.headerHash })
            .from(importColumnMaps)
            .orderBy(desc(importColumnMaps.usedAt), importColumnMaps.headerHash)
            .limit(REMEMBERED_HEADER_SETS),
        ),
      ),
  ]);
}
