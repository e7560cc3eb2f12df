import { read, utils } from "@e965/xlsx";
import { AppError } from "~/lib/app-error";
import { decodeText } from "./decode-text";
import { readXlsxRows, SPREADSHEET_PARSE_FAILED, type SheetRow } from "./read-xlsx-rows.server";
import { MAX_UPLOAD_BYTES, MAX_XLS_BYTES, UPLOAD_TOO_LARGE, XLS_TOO_LARGE } from "./upload-limits";

export { MAX_XLS_BYTES, SPREADSHEET_PARSE_FAILED, XLS_TOO_LARGE };

export const UNSUPPORTED_FILE = "Please upload a .csv, .xlsx or .xls file";

export type ContactsFile = { kind: "csv"; text: string } | { kind: "sheet"; rows: AsyncIterable<SheetRow> };

/**
 * An uploaded contacts file, checked for type and size before anything is read: a .csv as its text (one CSV parser
 * applies the import's rules), an .xlsx as its first sheet's rows streamed (read-xlsx-rows), an .xls's first sheet
 * converted by SheetJS (server only, never shipped to the browser) and streamed from that.
 */
export async function readContactsFile(file: File): Promise<ContactsFile> {
  const type = /\.(csv|xlsx|xls)$/i.exec(file.name)?.[1]?.toLowerCase();
  if (!type) throw new AppError("validation", UNSUPPORTED_FILE);
  if (file.size > MAX_UPLOAD_BYTES) throw new AppError("payload_too_large", UPLOAD_TOO_LARGE);
  if (type === "csv") return { kind: "csv", text: decodeText(new Uint8Array(await file.arrayBuffer())) };
  if (type === "xlsx") return { kind: "sheet", rows: readXlsxRows(file) };
  if (file.size > MAX_XLS_BYTES) throw new AppError("payload_too_large", XLS_TOO_LARGE);
  return { kind: "sheet", rows: xlsRows(new Uint8Array(await file.arrayBuffer())) };
}

/** An .xls's first sheet through SheetJS: formatted text, as the cell shows it (a phone typed as a number keeps its digits). */
async function* xlsRows(bytes: Uint8Array): AsyncGenerator<SheetRow> {
  let aoa: unknown[][];
  let firstRow = 0;
  try {
    const book = read(bytes, { type: "array", dense: true, cellFormula: false, cellHTML: false });
    const sheet = book.Sheets[book.SheetNames[0]];
    if (!sheet) throw new Error("no sheet");
    firstRow = sheet["!ref"] ? utils.decode_range(sheet["!ref"]).s.r : 0;
    aoa = utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, blankrows: true, defval: "" });
  } catch {
    throw new AppError("validation", SPREADSHEET_PARSE_FAILED);
  }
  for (let i = 0; i < aoa.length; i++) yield { row: firstRow + i + 1, cells: aoa[i].map((c) => String(c ?? "")) };
}
