import { read, utils } from "@e965/xlsx";
import { AppError } from "~/lib/app-error";
import { MAX_UPLOAD_BYTES, UPLOAD_TOO_LARGE } from "./stage-contact-import.server";

export const SPREADSHEET_PARSE_FAILED = "Failed to read the spreadsheet. Please check the file and try again.";
const SPREADSHEET_RE = /\.(xlsx|xls)$/i;

/**
 * An uploaded contacts file as CSV text: a .csv as it is, an .xlsx or .xls workbook's first sheet converted on the
 * server (SheetJS, never shipped to the browser), so one CSV parser applies the same rules to every format.
 */
export async function contactsFileAsCsv(file: File): Promise<string> {
  if (!/\.(csv|xlsx|xls)$/i.test(file.name)) throw new AppError("validation", "Please upload a .csv, .xlsx or .xls file");
  if (file.size > MAX_UPLOAD_BYTES) throw new AppError("payload_too_large", UPLOAD_TOO_LARGE);
  if (!SPREADSHEET_RE.test(file.name)) return file.text();
  try {
    const book = read(new Uint8Array(await file.arrayBuffer()), { type: "array", dense: true, cellFormula: false, cellHTML: false });
    const first = book.SheetNames[0];
    if (!first) throw new Error("no sheet");
    // Formatted text, as the cell shows it: a phone typed as a number keeps its digits (no 2.12e9).
    return utils.sheet_to_csv(book.Sheets[first], { blankrows: false });
  } catch {
    throw new AppError("validation", SPREADSHEET_PARSE_FAILED);
  }
}
