import { CONTACT_FIELD_NAMES, type ContactFields } from "./contact-fields";
// Contacts download (SPEC §5 "Download"): CSV, JSON and TXT renderings. Pure string builders; csvHeader and
// csvRow let a route stream a large list page by page instead of building one big string.

export const NO_CONTACTS_TO_DOWNLOAD = "No contacts to download";

export type ExportContact = ContactFields;

/** Column order of every format. */
export const EXPORT_COLUMNS = CONTACT_FIELD_NAMES;

const CRLF = "\r\n";

// A spreadsheet treats a cell starting with one of these as a formula (CSV injection), so such cells get a
// leading ' which makes it plain text. Note this includes normalised phones ("+1555…" → "'+1555…").
const FORMULA_TRIGGER = /^[=+\-@\t\r]/;

/** A value a spreadsheet will not run: a leading ' when it starts with a formula trigger. */
export function formulaSafe(value: string): string {
  return FORMULA_TRIGGER.test(value) ? `'${value}` : value;
}

/** One CSV cell: always quoted, quotes doubled, formula triggers neutralised, null/undefined → empty. */
export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return '""';
  return `"${formulaSafe(value).replace(/"/g, '""')}"`;
}

/** The header line, CRLF-terminated. */
export function csvHeader(): string {
  return EXPORT_COLUMNS.map(csvCell).join(",") + CRLF;
}

/** One contact line, CRLF-terminated. */
export function csvRow(row: ExportContact): string {
  return EXPORT_COLUMNS.map((column) => csvCell(row[column])).join(",") + CRLF;
}

export function contactsToCsv(rows: readonly ExportContact[]): string {
  return csvHeader() + rows.map(csvRow).join("");
}

/** Pretty-printed array holding only the export columns (so internal fields such as ids never leak). */
export function contactsToJson(rows: readonly ExportContact[]): string {
  const picked = rows.map((row) => Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, row[c] ?? null])));
  return JSON.stringify(picked, null, 2);
}

// Line breaks inside a value would split one contact over several lines.
const oneLine = (value: string | null | undefined) => (value ?? "").replace(/\s+/g, " ").trim();

/**
 * One contact per line: "First Last | '+15551234567 | email | company | address, city, ST zip" (blanks left out). A
 * spreadsheet opening the file splits it on "|": each part is formula-safe like a CSV cell (issue 23).
 */
export function txtLine(row: ExportContact): string {
  const name = oneLine(`${row.firstName ?? ""} ${row.lastName ?? ""}`);
  const stateZip = [oneLine(row.state), oneLine(row.zipCode)].filter(Boolean).join(" ");
  const place = [oneLine(row.address), oneLine(row.city), stateZip].filter(Boolean).join(", ");
  return [name, oneLine(row.phone), oneLine(row.email), oneLine(row.company), place]
    .filter(Boolean)
    .map(formulaSafe)
    .join(" | ");
}

export function contactsToTxt(rows: readonly ExportContact[]): string {
  return rows.map((row) => txtLine(row) + "\n").join("");
}
