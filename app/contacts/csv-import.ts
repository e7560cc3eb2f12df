// Contacts CSV import (SPEC §5 "CSV upload"): parse, map headers by alias, validate and normalise rows.
// Pure: the caller reads the file, and decides what to do with the rows (preview, insert, dedupe).

import Papa, { type ParseResult } from "papaparse";
import type { z } from "zod";
import { monthlyBillField, monthlyKwhField, utilityNameField, type HomeUsage } from "./home-usage";
import { CONTACT_FIELD_NAMES, type ContactFieldName } from "./contact-fields";
import type { REQUIRED_CONTACT_FIELDS } from "./contact-schema";
import { withoutControlChars } from "./decode-text";
import { contactSchema } from "./contact-schema";
import { normalizePhone } from "./phone";
import { normalizeState } from "./us-geo";
import {
  columnRank,
  guessColumn,
  guessColumns,
  rankOfType,
  TARGET_LABELS,
  typeColumnOf,
  type ColumnMap,
  type ColumnTarget,
} from "./column-aliases";
import { CUSTOM_FIELD_VARIABLES } from "./custom-fields";

type RequiredField = (typeof REQUIRED_CONTACT_FIELDS)[number];

/** A valid row: every contact field, the required ones as text, the others text or null. */
export type ImportRow = { [K in ContactFieldName]: K extends RequiredField ? string : string | null } & {
  /** The row's number as a spreadsheet shows it: the header is row 1, the first data row is row 2. */
  rowNumber: number;
  /** Columns named like a custom-field variable (roofSize, appointmentDate, …), when any is filled. */
  customFields?: Record<string, string>;
  /** The row's own owner from the file's Owner column, resolved to an active user (decision 050). */
  ownerUserId?: number;
  /** The home's bill, use and utility from their columns (decision 074), when any is filled. */
  home?: HomeUsage;
};

/**
 * An Owner cell → the user it names, or why not (decision 050). Built once per import on the server
 * (`importOwnerResolver`); a reader without one ignores an Owner column (the lead webhook reads its owner itself).
 */
export type OwnerResolver = (value: string) => { ownerUserId: number } | { error: string };

export type ParseContactsResult = {
  rows: ImportRow[];
  errors: string[];
  /** Non-blank data rows seen, valid or not (0 when fatal). */
  totalRows: number;
  fatal: string | null;
};

export const CSV_PARSE_FAILED = "Failed to parse CSV file. Please check the format.";

type Field = Exclude<keyof ImportRow, "rowNumber" | "customFields" | "ownerUserId" | "home">;

const FIELDS: readonly Field[] = CONTACT_FIELD_NAMES;
// The Match columns step's labels, so an error names a field as the person saw it there.
const FIELD_LABELS = Object.fromEntries(FIELDS.map((f) => [f, TARGET_LABELS[f]])) as Record<Field, string>;

const UNIQUE_FIELDS: ReadonlySet<Field> = new Set(["phone", "email"]);
const MEMO_LIMIT = 20_000;

/**
 * Checks one field's value with contactSchema's own schema for that field (the schema is a plain object of
 * independent fields, so this is the object parse, field by field) and remembers the verdict of a value that repeats.
 * Names, companies, cities, states and ZIP codes repeat across a file: a 100,000-row file took 1.2 s of zod's
 * preprocess steps as whole-object parses.
 */
function fieldChecker() {
  const memo = new Map<string, readonly string[]>();
  const verdict = (field: Field, value: string) => {
    const checked = contactSchema.shape[field].safeParse(value);
    return checked.success ? [] : checked.error.issues.map((i) => i.message);
  };
  return (field: Field, value: string): readonly string[] => {
    if (UNIQUE_FIELDS.has(field)) return verdict(field, value);
    const key = `${field}\u0000${value}`;
    let known = memo.get(key);
    if (!known) {
      known = verdict(field, value);
      if (memo.size < MEMO_LIMIT) memo.set(key, known);
    }
    return known;
  };
}

/** Which field a header cell maps to by the alias table (column-aliases.ts), or null. */
export function fieldForHeader(header: string): ColumnTarget | null {
  return guessColumn(header)?.target ?? null;
}

// Deliberately loose: one @, something on each side, a dot in the domain. The provider does the real check.
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const isBlankRecord = (cells: readonly string[]) => cells.every((c) => c.trim() === "");

function failed(): ParseContactsResult {
  return { rows: [], errors: [], totalRows: 0, fatal: CSV_PARSE_FAILED };
}

function parseRecords(text: string, delimiter: string | undefined): ParseResult<string[]> {
  // header:false keeps positions so row numbers and duplicate headers stay under our control;
  // skipEmptyLines:false so blank lines still count towards the spreadsheet row number.
  return Papa.parse<string[]>(text, { header: false, skipEmptyLines: false, delimiter, dynamicTyping: false });
}

/** A column read for one target: its index, its rank among several (phones, emails) and its row-by-row type column. */
type Source = { index: number; rank: number; typeIndex: number | null };

/** The columns per target, in order of precedence (rank, then left to right), from a mapping or the automatic guess. */
function mapHeader(
  header: readonly string[],
  columns: ColumnMap = guessColumns(header),
): Partial<Record<ColumnTarget, Source[]>> {
  const out: Partial<Record<ColumnTarget, Source[]>> = {};
  header.forEach((cell, index) => {
    const target = columns[index];
    if (!target) return;
    const h = String(cell ?? "");
    (out[target] ??= []).push({
      index,
      rank: columnRank(h, target),
      typeIndex: target === "phone" || target === "email" ? typeColumnOf(header, index) : null,
    });
  });
  for (const list of Object.values(out)) list.sort((a, b) => a.rank - b.rank || a.index - b.index);
  return out;
}

const hasRequiredColumn = (columns: Partial<Record<ColumnTarget, Source[]>>) =>
  Boolean(columns.firstName || columns.lastName || columns.phone || columns.fullName);

/**
 * "Ada Lovelace" → Ada / Lovelace; "Lovelace, Ada" → Ada / Lovelace; "Cher" → Cher / "". The last word is the last
 * name: "Mary Ann Smith" is Mary Ann / Smith, which is right far more often than not for US leads.
 */
export function splitFullName(full: string): { firstName: string; lastName: string } {
  const name = full.trim().replace(/\s+/g, " ");
  const comma = name.indexOf(",");
  if (comma > 0) return { firstName: name.slice(comma + 1).trim(), lastName: name.slice(0, comma).trim() };
  const space = name.lastIndexOf(" ");
  return space > 0
    ? { firstName: name.slice(0, space), lastName: name.slice(space + 1) }
    : { firstName: name, lastName: "" };
}

/** One data record read against the header: the normalised row, or its "Row N: …" errors. */
export type ContactRowReader = (
  record: readonly string[],
  rowNumber: number,
) => { row: ImportRow } | { errors: string[] };

/**
 * The import's rules for one record, given the file's header (SPEC §5): header aliases, required fields, the API's
 * field limits, normalisation. Null when the header maps none of first name, last name and phone. Shared by the CSV
 * parser below and the streamed spreadsheet rows (`readContactRows`).
 */
export function contactRowReader(
  header: readonly string[],
  opts: { requireLastName?: boolean; columns?: ColumnMap; owners?: OwnerResolver } = {},
): ContactRowReader | null {
  const requireLastName = opts.requireLastName ?? true;
  const columns = mapHeader(header, opts.columns);
  if (!hasRequiredColumn(columns)) return null;

  const cell = (record: readonly string[], target: ColumnTarget): string => {
    const sources = columns[target];
    if (!sources) return "";
    // A Google Contacts "Phone N - Value" takes its rank from the row's "Phone N - Type": a mobile in "Phone 2"
    // beats a home number in "Phone 1".
    const ordered = sources.some((s) => s.typeIndex !== null)
      ? sources
          .map((s) => ({
            ...s,
            rank: s.typeIndex === null ? s.rank : (rankOfType(String(record[s.typeIndex] ?? "")) ?? s.rank),
          }))
          .sort((a, b) => a.rank - b.rank || a.index - b.index)
      : sources;
    // The first non-blank value in order of precedence.
    for (const { index } of ordered) {
      // Control characters (a NUL from a binary-ish export, an _x0007_ in a sheet) never reach a contact (issue 23).
      const value = withoutControlChars(String(record[index] ?? "")).trim();
      if (value) return value;
    }
    return "";
  };
  const optional = (record: readonly string[], field: Field) => cell(record, field) || null;
  const customColumns = CUSTOM_FIELD_VARIABLES.filter((name) => columns[name]);
  const customFieldsOf = (record: readonly string[]) => {
    const values = Object.fromEntries(
      customColumns.map((name) => [name, cell(record, name).slice(0, 200)]).filter(([, v]) => v),
    );
    return Object.keys(values).length ? { customFields: values } : {};
  };
  const check = fieldChecker();
  const homeColumns = columns.monthlyBill || columns.monthlyKwh || columns.utilityName;
  /** The row's home usage (the Savings card's rules), its refusals added to `errors`. */
  const homeOf = (record: readonly string[], rowNumber: number, errors: string[]): { home?: HomeUsage } => {
    if (!homeColumns) return {};
    const read = <T>(field: z.ZodType<T, z.ZodTypeDef, string>, target: ColumnTarget): T | null => {
      const parsed = field.safeParse(cell(record, target));
      if (parsed.success) return parsed.data;
      errors.push(`Row ${rowNumber}: ${parsed.error.issues[0].message}`);
      return null;
    };
    const home: HomeUsage = {
      monthlyBillCents: read(monthlyBillField, "monthlyBill"),
      monthlyKwh: read(monthlyKwhField, "monthlyKwh"),
      utilityName: read(utilityNameField, "utilityName"),
    };
    return home.monthlyBillCents === null && home.monthlyKwh === null && home.utilityName === null ? {} : { home };
  };

  return (record, rowNumber) => {
    let firstName = cell(record, "firstName");
    let lastName = cell(record, "lastName");
    if (!firstName && !lastName && columns.fullName)
      ({ firstName, lastName } = splitFullName(cell(record, "fullName")));
    const rawPhone = cell(record, "phone");
    const rawEmail = cell(record, "email");
    const rowErrors: string[] = [];
    if (!firstName) rowErrors.push(`Row ${rowNumber}: First name is required`);
    if (!lastName && requireLastName) rowErrors.push(`Row ${rowNumber}: Last name is required`);
    if (!rawPhone) rowErrors.push(`Row ${rowNumber}: Phone number is required`);
    if (rawEmail && !EMAIL_RE.test(rawEmail)) rowErrors.push(`Row ${rowNumber}: Invalid email address`);
    const rawOwner = opts.owners ? cell(record, "owner") : "";
    const owner = rawOwner ? opts.owners!(rawOwner) : null;
    if (owner && "error" in owner) rowErrors.push(`Row ${rowNumber}: ${owner.error}`);
    const home = homeOf(record, rowNumber, rowErrors);
    if (rowErrors.length === 0) {
      // The API's schema too (one set of limits for both paths): a 5,000-character name is an error here as well.
      for (const f of FIELDS) {
        const value =
          f === "phone"
            ? rawPhone
            : f === "firstName"
              ? firstName
              : f === "lastName"
                ? lastName || "-"
                : cell(record, f);
        for (const message of check(f, value)) rowErrors.push(`Row ${rowNumber}: ${FIELD_LABELS[f]}: ${message}`);
      }
    }
    if (rowErrors.length > 0) return { errors: rowErrors };

    const rawState = optional(record, "state");
    return {
      row: {
        rowNumber,
        firstName,
        lastName,
        phone: normalizePhone(rawPhone),
        email: rawEmail ? rawEmail.toLowerCase() : null,
        company: optional(record, "company"),
        address: optional(record, "address"),
        city: optional(record, "city"),
        // Keep an unrecognised state as typed rather than losing it (e.g. a foreign province).
        state: rawState ? (normalizeState(rawState) ?? rawState) : null,
        zipCode: optional(record, "zipCode"),
        ...customFieldsOf(record),
        ...home,
        ...(owner && "ownerUserId" in owner ? { ownerUserId: owner.ownerUserId } : {}),
      },
    };
  };
}

/** A spreadsheet row as a streaming reader gives it: its number in the sheet and its cells from column A. */
export type SheetRecord = { row: number; cells: string[] };

/**
 * The contacts of streamed spreadsheet rows, one at a time to `onRow`, with the CSV path's rules: the first non-blank
 * row is the header, data rows are numbered from it (header = row 1, so with the header on the sheet's first row the
 * numbers are the spreadsheet's own, blank rows included), blank rows are skipped. Keeps at most `keepErrors` error
 * lines (and counts them all). Never throws for the file's content: an unusable header or no data row is `fatal`.
 */
export async function readContactRows(
  records: AsyncIterable<SheetRecord>,
  opts: { requireLastName?: boolean; keepErrors?: number; columns?: ColumnMap; owners?: OwnerResolver },
  onRow: (row: ImportRow) => void | Promise<void>,
): Promise<{ totalRows: number; validRows: number; errors: string[]; errorCount: number; fatal: string | null }> {
  const keep = opts.keepErrors ?? Infinity;
  let reader: ContactRowReader | null = null;
  let headerRow = 0;
  let totalRows = 0;
  let validRows = 0;
  let errorCount = 0;
  const errors: string[] = [];
  for await (const record of records) {
    if (isBlankRecord(record.cells)) continue;
    if (!reader) {
      reader = contactRowReader(record.cells, opts);
      if (!reader) return { totalRows: 0, validRows: 0, errors: [], errorCount: 0, fatal: CSV_PARSE_FAILED };
      headerRow = record.row;
      continue;
    }
    totalRows++;
    const result = reader(record.cells, record.row - headerRow + 1);
    if ("errors" in result) {
      errorCount += result.errors.length;
      for (const e of result.errors) if (errors.length < keep) errors.push(e);
    } else {
      validRows++;
      await onRow(result.row);
    }
  }
  if (totalRows === 0) return { totalRows: 0, validRows: 0, errors: [], errorCount: 0, fatal: CSV_PARSE_FAILED };
  return { totalRows, validRows, errors, errorCount, fatal: null };
}

/**
 * Parses an uploaded contacts CSV. Never throws: anything unreadable comes back as `fatal`.
 * Rows with errors are dropped and reported as "Row N: …" where N is the spreadsheet row (header = row 1;
 * blank lines are skipped but keep their number, so N matches what Excel or Sheets shows). `requireLastName: false`
 * is the quick upload's rule (SPEC §5: a phone and a first name); such a contact is saved with an empty last name.
 */
export function parseContactsCsv(
  text: string,
  opts: { requireLastName?: boolean; columns?: ColumnMap; owners?: OwnerResolver } = {},
): ParseContactsResult {
  const requireLastName = opts.requireLastName ?? true;
  try {
    const csv = readCsvRecords(text);
    if (!csv) return failed();
    const reader = contactRowReader(csv.header, { requireLastName, columns: opts.columns, owners: opts.owners });
    if (!reader) return failed();

    const rows: ImportRow[] = [];
    const errors: string[] = [];
    let totalRows = 0;
    for (const record of csv.records) {
      totalRows++;
      const result = reader(record.cells, record.row);
      if ("errors" in result) errors.push(...result.errors);
      else rows.push(result.row);
    }

    if (totalRows === 0) return failed(); // a header with no data line
    return { rows, errors, totalRows, fatal: null };
  } catch {
    return failed();
  }
}

/**
 * A CSV's header and non-blank data records, numbered as the spreadsheet shows them (header = row 1), before any
 * column is mapped; null when unreadable. Comma first (the documented format), then Papa's delimiter guess for
 * semicolon/tab exports when that finds a usable header (or more columns) and the comma did not.
 */
export function readCsvRecords(text: string): { header: string[]; records: SheetRecord[] } | null {
  if (typeof text !== "string") return null;
  // Papa keeps a leading BOM in the first header cell, which would hide the first column's alias.
  const input = text.replace(/^\uFEFF/, "");
  let parsed = parseRecords(input, ",");
  let located = locateHeader(parsed.data);
  if (!located || !hasRequiredColumn(mapHeader(located.header))) {
    const guessed = parseRecords(input, undefined);
    const guessedHeader = locateHeader(guessed.data);
    const better =
      guessedHeader &&
      (hasRequiredColumn(mapHeader(guessedHeader.header)) ||
        (located && located.header.length === 1 && guessedHeader.header.length > 1));
    if (better) {
      parsed = guessed;
      located = guessedHeader;
    }
  }
  if (!located) return null;
  // An unterminated quote swallows the rest of the file, so no row after it can be trusted.
  if (parsed.errors.some((e) => e.code === "MissingQuotes")) return null;
  const records: SheetRecord[] = [];
  parsed.data.slice(located.index + 1).forEach((raw, dataIndex) => {
    const cells = Array.isArray(raw) ? raw.map((c) => String(c ?? "")) : [];
    if (!isBlankRecord(cells)) records.push({ row: dataIndex + 2, cells });
  });
  return { header: located.header, records };
}

/** The header is the first non-blank record; data rows are numbered from it. */
function locateHeader(data: unknown[]): { index: number; header: string[] } | null {
  for (let index = 0; index < data.length; index++) {
    const record = data[index];
    if (!Array.isArray(record)) continue;
    const cells = record.map((c) => String(c ?? ""));
    if (!isBlankRecord(cells)) return { index, header: cells };
  }
  return null;
}

/** SPEC §5: the first `shown` errors, then "... and K more errors". */
export function formatErrorPreview(errors: string[], shown = 5): string[] {
  const visible = errors.slice(0, Math.max(0, shown));
  const remaining = errors.length - visible.length;
  return remaining > 0 ? [...visible, `... and ${remaining} more errors`] : visible;
}

// The template lives in a tiny module so the upload dialog can name it without shipping papaparse to browsers.
export { CONTACTS_TEMPLATE_CSV, CONTACTS_TEMPLATE_FILENAME } from "./contacts-template";
