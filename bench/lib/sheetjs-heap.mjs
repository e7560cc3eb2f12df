// Child process of bench/spreadsheet-import.mjs, run with `node --trace-gc --expose-gc`: what reading an .xlsx the way
// Helio did before decision 019 costs in V8's heap — SheetJS's read() of the whole workbook, then sheet_to_csv of the
// first sheet. The parent reads V8's GC trace (heap before and after each collection) from the output after the
// "baseline" line. Usage: node --trace-gc --expose-gc bench/lib/sheetjs-heap.mjs <file.xlsx>
import { readFileSync } from "node:fs";
import { read, utils } from "@e965/xlsx";

const bytes = new Uint8Array(readFileSync(process.argv[2]));
globalThis.gc();
console.log(`baseline ${process.memoryUsage().heapUsed}`);
const t0 = performance.now();
const book = read(bytes, { type: "array", dense: true, cellFormula: false, cellHTML: false });
const csv = utils.sheet_to_csv(book.Sheets[book.SheetNames[0]], { blankrows: false });
console.log(`done ${csv.length} ${Math.round(performance.now() - t0)}`);
