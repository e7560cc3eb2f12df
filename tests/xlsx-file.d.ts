type PartText = string | Iterable<string> | AsyncIterable<string>;

/** A zip of `parts` (path → text or text chunks), each deflated unless `store`. */
export function zipParts(parts: Record<string, PartText>, opts?: { store?: boolean }): Promise<Uint8Array<ArrayBuffer>>;

/** XML text escaping, as Excel writes it. */
export function esc(s: string | number): string;

/** Spreadsheet column letters for a 0-based index (0 → A, 26 → AA). */
export function colName(i: number): string;

/** The parts of a workbook: sheets in order (sheetData XML), shared strings' <si> items, styles, the date system. */
export function workbookParts(wb: {
  sheets: { name: string; sheetData: PartText; prefix?: string }[];
  sharedStrings?: PartText;
  sharedCount?: number;
  numFmts?: string;
  cellXfs?: string;
  date1904?: boolean;
}): Record<string, PartText>;
