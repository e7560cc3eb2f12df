// Upload limits, in a module without server code so the upload dialogs can state them (decision 019).

// A Worker has 128 MB for everything: the request, the file's text, its parsed rows and the staging JSON. Measured in
// Node: a 14 MB CSV (170,000 rows) peaked at 121 MB of heap with the rows and the JSON alive together, 78 MB with
// each chunk's rows let go as its JSON is built; a 10 MB CSV (~115,000 contacts, above the 100k a team is sized for)
// peaks at 57 MB, which leaves room for the request itself. A 10 MB .xlsx streams (read-xlsx-rows): `npm run
// bench:spreadsheet` measures the Worker's heap uploading one.
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const UPLOAD_TOO_LARGE = `The file is too large (maximum ${MAX_UPLOAD_BYTES / 1024 / 1024} MB). Please split it into smaller files.`;

/**
 * .xls (the binary Excel 97–2003 format) is still read whole by SheetJS, which holds ~40 MB of heap per MB of .xls
 * (measured in Node on SheetJS-written .xls with a shared string table: 0.82 MB → 40 MB, 1.6 MB → 73 MB; `npm run
 * bench:spreadsheet` prints the figure at this cap): 1 MB (~3,000 contacts) keeps that inside the 64 MB an upload may
 * use. Newer Excel files (.xlsx) stream and take the full upload limit.
 */
export const MAX_XLS_BYTES = 1024 * 1024;

/** Rows of a spreadsheet at most: the product is sized for 100,000 contacts per file (issue 23, decision 022). */
export const MAX_SHEET_ROWS = 100_000;
export const XLS_TOO_LARGE = `.xls files can be at most ${MAX_XLS_BYTES / 1024 / 1024} MB. Please save the sheet as .xlsx or CSV (up to ${MAX_UPLOAD_BYTES / 1024 / 1024} MB), or split it.`;
