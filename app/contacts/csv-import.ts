// Contacts CSV import (SPEC §5 "CSV upload"): parse, map headers by alias, validate and normalise rows.
// Pure: the caller reads the file, and decides what to do with the rows (preview, insert, dedupe).

import Papa, { type ParseResult } from "papaparse";
import { withoutControlChars } from "./decode-text";
import { contactSchema } from "./contact-schema";
import { normalizePhone } from "./phone";
import { normalizeState } from "./us-geo";
import { CUSTOM_FIELD_VARIABLES } from "./custom-fields";

export type ImportRow = {
  /** The row's number as a spreadsheet shows it: the header is row 1, the first data row is row 2. */
  rowNumber: number;
  firstName: string;
  lastName: string;
  phone: string;
  email: string | null;
  company: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  /** Columns named like a custom-field variable (roofSize, appointmentDate, …), when any is filled. */
  customFields?: Record<string, string>;
};

export type ParseContactsResult = {
  rows: ImportRow[];
  errors: string[];
  /** Non-blank data rows seen, valid or not (0 when fatal). */
  totalRows: number;
  fatal: string | null;
};

export const CSV_PARSE_FAILED = "Failed to parse CSV file. Please check the format.";

type Field = Exclude<keyof ImportRow, "rowNumber" | "customFields">;

// Header aliases per field. Matching ignores case and every character that is not a letter or digit, so
// "First Name", "first_name", "first-name" and "FIRSTNAME" are one alias.
const HEADER_ALIASES: Record<Field, readonly string[]> = {
  firstName: ["firstName", "first_name", "First Name", "first", "fname", "given name"],
  lastName: ["lastName", "last_name", "Last Name", "last", "lname", "surname", "family name"],
  phone: ["phone", "phone_number", "Phone Number", "mobile", "cell", "telephone"],
  email: ["email", "e-mail", "email_address", "Email Address"],
  company: ["company", "organization", "organisation", "business"],
  address: ["address", "street", "location", "address1", "street address"],
  city: ["city", "town"],
  state: ["state", "province", "region", "st"],
  zipCode: ["zip", "zipCode", "zip_code", "postal code", "postcode", "zip code"],
};

const FIELD_LABELS: Record<Field, string> = {
  firstName: "First name",
  lastName: "Last name",
  phone: "Phone",
  email: "Email",
  company: "Company",
  address: "Address",
  city: "City",
  state: "State",
  zipCode: "ZIP code",
};

const FIELDS = Object.keys(FIELD_LABELS) as Field[];
/** Unique per row in any real file: remembering their verdicts would only cost memory. */
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

const headerKey = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, "");

const ALIAS_TO_FIELD: Map<string, Field> = new Map(
  (Object.entries(HEADER_ALIASES) as [Field, readonly string[]][]).flatMap(([field, aliases]) =>
    aliases.map((a) => [headerKey(a), field] as const),
  ),
);

/** Which field a header cell maps to, or null. Exported for the upload dialog's column hints. */
export function fieldForHeader(header: string): Field | null {
  return ALIAS_TO_FIELD.get(headerKey(header)) ?? null;
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

/** Column index lists per field, in header order (a file may have both "Phone" and "Mobile"). */
function mapHeader(header: readonly string[]): Partial<Record<Field, number[]>> {
  const columns: Partial<Record<Field, number[]>> = {};
  header.forEach((cell, index) => {
    const field = fieldForHeader(String(cell ?? ""));
    if (field) (columns[field] ??= []).push(index);
  });
  return columns;
}

const hasRequiredColumn = (columns: Partial<Record<Field, number[]>>) =>
  Boolean(columns.firstName || columns.lastName || columns.phone);

/** One data record read against the header: the normalised row, or its "Row N: …" errors. */
export type ContactRowReader = (record: readonly string[], rowNumber: number) => { row: ImportRow } | { errors: string[] };

/**
 * The import's rules for one record, given the file's header (SPEC §5): header aliases, required fields, the API's
 * field limits, normalisation. Null when the header maps none of first name, last name and phone. Shared by the CSV
 * parser below and the streamed spreadsheet rows (`readContactRows`).
 */
export function contactRowReader(header: readonly string[], opts: { requireLastName?: boolean } = {}): ContactRowReader | null {
  const requireLastName = opts.requireLastName ?? true;
  const columns = mapHeader(header);
  if (!hasRequiredColumn(columns)) return null;

  const cell = (record: readonly string[], field: Field): string => {
    // First non-blank value among the columns mapped to this field.
    for (const index of columns[field] ?? []) {
      // Control characters (a NUL from a binary-ish export, an _x0007_ in a sheet) never reach a contact (issue 23).
      const value = withoutControlChars(String(record[index] ?? "")).trim();
      if (value) return value;
    }
    return "";
  };
  const optional = (record: readonly string[], field: Field) => cell(record, field) || null;
  // Custom-field columns are matched by the variable's own name ("roofSize", "Roof Size", "roof_size").
  const customColumns = CUSTOM_FIELD_VARIABLES.flatMap((name) => {
    const index = header.findIndex((h) => headerKey(String(h ?? "")) === headerKey(name));
    return index >= 0 ? [[name, index] as const] : [];
  });
  const customFieldsOf = (record: readonly string[]) => {
    const values = Object.fromEntries(customColumns.map(([name, i]) => [name, withoutControlChars(String(record[i] ?? "")).trim().slice(0, 200)]).filter(([, v]) => v));
    return Object.keys(values).length ? { customFields: values } : {};
  };
  const check = fieldChecker();

  return (record, rowNumber) => {
    const firstName = cell(record, "firstName");
    const lastName = cell(record, "lastName");
    const rawPhone = cell(record, "phone");
    const rawEmail = cell(record, "email");
    const rowErrors: string[] = [];
    if (!firstName) rowErrors.push(`Row ${rowNumber}: First name is required`);
    if (!lastName && requireLastName) rowErrors.push(`Row ${rowNumber}: Last name is required`);
    if (!rawPhone) rowErrors.push(`Row ${rowNumber}: Phone number is required`);
    if (rawEmail && !EMAIL_RE.test(rawEmail)) rowErrors.push(`Row ${rowNumber}: Invalid email address`);
    if (rowErrors.length === 0) {
      // The API's schema too (one set of limits for both paths): a 5,000-character name is an error here as well.
      for (const f of FIELDS) {
        const value = f === "phone" ? rawPhone : f === "lastName" && !lastName ? "-" : cell(record, f);
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
  opts: { requireLastName?: boolean; keepErrors?: number },
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
export function parseContactsCsv(text: string, opts: { requireLastName?: boolean } = {}): ParseContactsResult {
  const requireLastName = opts.requireLastName ?? true;
  try {
    if (typeof text !== "string") return failed();
    // Papa keeps a leading BOM in the first header cell, which would hide the first column's alias.
    const input = text.replace(/^\uFEFF/, "");

    // Comma first (the documented format); fall back to Papa's delimiter guess for semicolon/tab exports.
    let parsed = parseRecords(input, ",");
    let located = locateHeader(parsed.data);
    if (!located || !hasRequiredColumn(mapHeader(located.header))) {
      const guessed = parseRecords(input, undefined);
      const guessedHeader = locateHeader(guessed.data);
      if (guessedHeader && hasRequiredColumn(mapHeader(guessedHeader.header))) {
        parsed = guessed;
        located = guessedHeader;
      }
    }
    if (!located) return failed();
    // An unterminated quote swallows the rest of the file, so no row after it can be trusted.
    if (parsed.errors.some((e) => e.code === "MissingQuotes")) return failed();

    const reader = contactRowReader(located.header, { requireLastName });
    if (!reader) return failed();

    const rows: ImportRow[] = [];
    const errors: string[] = [];
    let totalRows = 0;

    parsed.data.slice(located.index + 1).forEach((raw, dataIndex) => {
      const record = Array.isArray(raw) ? raw.map((c) => String(c ?? "")) : [];
      if (isBlankRecord(record)) return;
      totalRows++;
      const result = reader(record, dataIndex + 2);
      if ("errors" in result) errors.push(...result.errors);
      else rows.push(result.row);
    });

    if (totalRows === 0) return failed(); // a header with no data line
    return { rows, errors, totalRows, fatal: null };
  } catch {
    return failed();
  }
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
