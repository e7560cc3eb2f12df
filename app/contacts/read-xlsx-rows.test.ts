// The streaming .xlsx reader (decision 019) against SheetJS, the reader it replaces, as the oracle: on random sheets
// SheetJS writes itself (shared or inline strings, numbers, dates, booleans, holes, a second sheet) and on workbooks
// written part by part as Excel and other producers lay them out (rich text, phonetic runs, namespace prefixes,
// missing cell references, custom number formats, the 1904 date system, errors, formulas' cached values). Each row is
// the sheet row number and the cells' text as SheetJS's sheet_to_csv writes it.
import { read, utils, write, type CellObject, type WorkBook } from "@e965/xlsx";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { colName, esc, workbookParts, zipParts } from "../../tests/xlsx-file.js";
import {
  readXlsxRows,
  SPREADSHEET_ENCRYPTED,
  SPREADSHEET_PARSE_FAILED,
  TOO_BIG_UNPACKED,
  TOO_MANY_ROWS,
  TOO_MUCH_TEXT,
  tooManyRows,
  XLSX_LIMITS,
  type XlsxLimits,
} from "./read-xlsx-rows.server";

type Grid = Map<number, string[]>;
const trimEnd = (cells: string[]) => {
  const out = [...cells];
  while (out.length && out[out.length - 1] === "") out.pop();
  return out;
};

/** SheetJS's view of the first sheet: each row that has a value, its cells' formatted text by absolute column. */
function sheetjsGrid(bytes: Uint8Array): Grid {
  const book = read(bytes, { type: "array", dense: true, cellFormula: false, cellHTML: false });
  const sheet = book.Sheets[book.SheetNames[0]];
  const data = (sheet["!data"] ?? []) as (CellObject | undefined)[][];
  const grid: Grid = new Map();
  data.forEach((row, r) => {
    if (!row) return;
    const cells: string[] = [];
    let any = false;
    row.forEach((cell, c) => {
      if (!cell || cell.v == null) return;
      while (cells.length < c) cells.push("");
      cells[c] = utils.format_cell(cell);
      any = true;
    });
    if (any) grid.set(r + 1, trimEnd(cells));
  });
  return grid;
}

async function streamedGrid(bytes: Uint8Array<ArrayBuffer>, limits?: XlsxLimits): Promise<Grid> {
  const grid: Grid = new Map();
  for await (const row of readXlsxRows(new File([bytes], "sheet.xlsx"), limits)) {
    expect(grid.has(row.row), `row ${row.row} twice`).toBe(false);
    grid.set(row.row, trimEnd(row.cells));
  }
  return grid;
}

const sameAsSheetJS = async (bytes: Uint8Array<ArrayBuffer>) =>
  expect(Object.fromEntries(await streamedGrid(bytes))).toEqual(Object.fromEntries(sheetjsGrid(bytes)));

function sheetjsWorkbook(sheets: unknown[][][], opts: { bookSST: boolean; compression: boolean }) {
  const book: WorkBook = utils.book_new();
  sheets.forEach((aoa, i) =>
    utils.book_append_sheet(book, utils.aoa_to_sheet(aoa, { cellDates: true }), `Sheet ${i + 1}`),
  );
  return new Uint8Array(write(book, { type: "array", bookType: "xlsx", ...opts }) as ArrayBuffer);
}

/** A workbook from hand-written parts (tests/xlsx-file.js), as a producer other than SheetJS would write it. */
const handWritten = async (wb: Parameters<typeof workbookParts>[0], opts?: { store?: boolean }) =>
  zipParts(workbookParts(wb), opts);

const cellValue = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "Ana",
      "  padded  ",
      "a & b <c> \"d\" 'e'",
      "line\nbreak",
      "crlf\r\nend",
      "tab\there",
      "_x0041_",
      "ü ñ 漢字 😀",
      "=1+1",
      "",
      " ",
    ),
  },
  { weight: 2, arbitrary: fc.integer({ min: -1e6, max: 1e10 }) },
  { weight: 1, arbitrary: fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constantFrom(2128675301, 12345678901234, 0.1, 1e-7, -0, 3.14159265358979) },
  { weight: 1, arbitrary: fc.boolean() },
  {
    weight: 1,
    arbitrary: fc.date({
      min: new Date("1950-01-01T00:00:00Z"),
      max: new Date("2090-12-31T00:00:00Z"),
      noInvalidDate: true,
    }),
  },
  { weight: 3, arbitrary: fc.constant(undefined) },
);
const grid = fc.array(fc.array(cellValue, { maxLength: 8 }), { maxLength: 25 });

describe("readXlsxRows gives SheetJS's rows", () => {
  it("on random sheets SheetJS writes: shared or inline strings, numbers, dates, booleans, holes; the first sheet only", async () => {
    await fc.assert(
      fc.asyncProperty(grid, grid, fc.boolean(), fc.boolean(), async (first, second, bookSST, compression) => {
        await sameAsSheetJS(sheetjsWorkbook([first, second], { bookSST, compression }));
      }),
      { numRuns: 120 },
    );
  });

  it("on an Excel-style sheet: shared strings with rich text and phonetic runs, styles, spans, self-closing and blank rows", async () => {
    const bytes = await handWritten({
      sharedStrings: [
        "<si><t>First Name</t></si>",
        "<si><t>Phone</t></si>",
        '<si><r><rPr><b/></rPr><t>Ri</t></r><r><t xml:space="preserve">ch </t></r><r><t>text</t></r></si>',
        '<si><r><t>漢字</t></r><rPh sb="0" eb="2"><t>かんじ</t></rPh><phoneticPr fontId="1"/></si>',
        '<si><t xml:space="preserve">  spaced &amp; &lt;escaped&gt; &#65;&#x42; </t></si>',
        "<si><t>cr_x000D_lf&#13;&#10;end</t></si>",
        "<si><t/></si>",
        "<si/>",
      ].join(""),
      sharedCount: 8,
      numFmts:
        '<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/><numFmt numFmtId="165" formatCode="&quot;$&quot;#,##0.00"/></numFmts>',
      cellXfs:
        '<cellXfs count="5"><xf numFmtId="0" xfId="0"/><xf numFmtId="164" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" xfId="0"/><xf numFmtId="14" xfId="0"/><xf numFmtId="49" xfId="0"/></cellXfs>',
      sheets: [
        {
          name: "Leads",
          sheetData: [
            '<row r="1" spans="1:6" x14ac:dyDescent="0.25"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" s="1"/></row>',
            '<row r="2" spans="1:6"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>2128675301</v></c><c r="C2" s="1"><v>45000</v></c><c r="D2" s="2"><v>1234.5</v></c><c r="E2" s="3"><v>45000.75</v></c><c r="F2" s="4"><v>7</v></c></row>',
            '<row r="3" spans="1:6" s="1" customFormat="1"/>',
            '<row r="4"><c r="A4" s="1"/><c r="B4" t="s"/></row>',
            '<row r="5"><c r="B5" t="s"><v>3</v></c><c r="D5" t="s"><v>4</v></c><c r="AA5" t="s"><v>5</v></c></row>',
            '<row r="6"><c r="A6" t="s"><v>6</v></c><c r="B6" t="s"><v>7</v></c><c r="C6" t="b"><v>1</v></c><c r="D6" t="b"><v>0</v></c><c r="E6" t="e"><v>#N/A</v></c></row>',
            '<row r="7"><c r="A7" t="str"><f>CONCAT("a","b")</f><v>ab</v></c><c r="B7"><f>1+1</f><v>2</v></c><c r="C7" t="inlineStr"><is><t>inline &amp; text</t></is></c><c r="D7" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r></is></c></row>',
            '<row r="9"><c r="C9" t="n"><v>-0.000123</v></c><c r="D9"><v>1E+21</v></c><c r="E9" t="d"><v>2024-02-29T12:00:00</v></c></row>',
          ].join(""),
        },
        { name: "Other", sheetData: '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' },
      ],
    });
    await sameAsSheetJS(bytes);
    const rows = await streamedGrid(bytes);
    expect(rows.get(2)).toEqual(["Rich text", "2128675301", "2023-03-15", "$1,234.50", "3/15/23", "7"]);
    expect(rows.get(5)?.slice(1, 4)).toEqual(["漢字", "", "  spaced & <escaped> AB "]);
    expect(rows.has(3)).toBe(false);
    expect(rows.has(4)).toBe(false);
  });

  it("with a namespace prefix on every element, rows and cells without references, stored entries, the 1904 date system", async () => {
    const bytes = await handWritten(
      {
        date1904: true,
        cellXfs: '<cellXfs count="2"><xf numFmtId="0" xfId="0"/><xf numFmtId="14" xfId="0"/></cellXfs>',
        sheets: [
          {
            name: "Prefixed",
            prefix: "x:",
            sheetData: [
              '<x:row><x:c t="inlineStr"><x:is><x:t>First Name</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>Phone</x:t></x:is></x:c></x:row>',
              '<x:row><x:c t="inlineStr"><x:is><x:t>Bo</x:t></x:is></x:c><x:c><x:v>3108675302</x:v></x:c><x:c s="1"><x:v>40000</x:v></x:c></x:row>',
              '<x:row r="5"><x:c r="C5" t="str"><x:v>after a gap</x:v></x:c><x:c><x:v>1</x:v></x:c></x:row>',
            ].join(""),
          },
        ],
      },
      { store: true },
    );
    await sameAsSheetJS(bytes);
    expect([...(await streamedGrid(bytes)).keys()]).toEqual([1, 2, 5]);
  });

  it("reads the first sheet in the workbook's order, wherever its part is, and part names in any case", async () => {
    const parts = workbookParts({
      sheets: [
        { name: "Second part, first sheet", sheetData: '<row r="1"><c r="A1" t="str"><v>first</v></c></row>' },
        { name: "Other", sheetData: '<row r="1"><c r="A1" t="str"><v>other</v></c></row>' },
      ],
    });
    // The workbook lists sheet 2's part first: swap the two sheets' relationships.
    const rels = String(parts["xl/_rels/workbook.xml.rels"])
      .replace("worksheets/sheet1.xml", "worksheets/TMP")
      .replace("worksheets/sheet2.xml", "worksheets/sheet1.xml")
      .replace("worksheets/TMP", "worksheets/sheet2.xml");
    const sheet2 = parts["xl/worksheets/sheet2.xml"];
    delete parts["xl/worksheets/sheet2.xml"];
    const bytes = await zipParts({ ...parts, "xl/_rels/workbook.xml.rels": rels, "XL/Worksheets/Sheet2.xml": sheet2 });
    expect(Object.fromEntries(await streamedGrid(bytes))).toEqual({ 1: ["other"] });
  });

  it("a big sheet streams in many chunks with the same rows (cells split across chunk boundaries)", async () => {
    const rows: unknown[][] = [["First Name", "Last Name", "Phone", "Notes"]];
    for (let i = 0; i < 6000; i++)
      rows.push([
        `Name ${i}`,
        i % 7 ? `Last ${i % 50}` : undefined,
        2125550000 + i,
        i % 3 ? "x".repeat(i % 97) : undefined,
      ]);
    await sameAsSheetJS(sheetjsWorkbook([rows], { bookSST: true, compression: true }));
  });
});

describe("files that are not readable workbooks fail with a clear 4xx, never a 500", () => {
  const rowsOf = async (bytes: Uint8Array<ArrayBuffer>, limits?: XlsxLimits) => {
    const out = [];
    for await (const r of readXlsxRows(new File([bytes], "x.xlsx"), limits)) out.push(r);
    return out;
  };
  const good = () =>
    sheetjsWorkbook(
      [
        [
          ["First Name", "Phone"],
          ["Ana", 2128675301],
        ],
      ],
      { bookSST: true, compression: true },
    );

  it("not a zip, a truncated zip, a zip without a workbook, corrupt deflate data: 400 with the spreadsheet message", async () => {
    const bytes = await good();
    const corrupt = bytes.slice();
    // Flip bytes in the middle of the entries' deflate data (the central directory at the end stays intact).
    for (let i = 200; i < Math.min(corrupt.length - 400, 1200); i += 7) corrupt[i] ^= 0x5a;
    const cases: [string, Uint8Array<ArrayBuffer>][] = [
      ["text", new TextEncoder().encode("First Name,Phone\nAna,2128675301\n")],
      ["zip header then junk", new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Array(500).fill(42)])],
      ["truncated", bytes.slice(0, Math.floor(bytes.length / 2))],
      ["empty", new Uint8Array(0)],
      ["no workbook", await zipParts({ "hello.txt": "not a workbook" })],
      ["corrupt data", corrupt],
    ];
    for (const [what, b] of cases) {
      await expect(rowsOf(b), what).rejects.toMatchObject({
        code: "validation",
        status: 400,
        message: SPREADSHEET_PARSE_FAILED,
      });
    }
  });

  it("an encrypted workbook (an OLE container) says so", async () => {
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(1000).fill(0)]);
    await expect(rowsOf(ole)).rejects.toMatchObject({ status: 400, message: SPREADSHEET_ENCRYPTED });
  });

  it("past the limits: 413 with what to do (too much distinct text, too big once unpacked)", async () => {
    const bytes = await good();
    await expect(rowsOf(bytes, { ...XLSX_LIMITS, sharedStrings: 2 })).rejects.toMatchObject({
      code: "payload_too_large",
      status: 413,
      message: TOO_MUCH_TEXT,
    });
    await expect(rowsOf(bytes, { ...XLSX_LIMITS, sharedStringBytes: 10 })).rejects.toMatchObject({
      status: 413,
      message: TOO_MUCH_TEXT,
    });
    await expect(rowsOf(bytes, { ...XLSX_LIMITS, partBytes: 300 })).rejects.toMatchObject({
      status: 413,
      message: TOO_BIG_UNPACKED,
    });
  });

  it("column letters past Z and wide rows", async () => {
    const cells = Array.from(
      { length: 60 },
      (_, i) => `<c r="${colName(i * 5)}1" t="inlineStr"><is><t>${esc(`col ${i}`)}</t></is></c>`,
    ).join("");
    await sameAsSheetJS(await handWritten({ sheets: [{ name: "Wide", sheetData: `<row r="1">${cells}</row>` }] }));
  });
});

describe("zip bombs and oversized sheets are refused with a clear 413 (issue 23)", () => {
  const rowsOf = async (bytes: Uint8Array<ArrayBuffer>, limits?: XlsxLimits) => {
    let n = 0;
    for await (const _ of readXlsxRows(new File([bytes], "x.xlsx"), limits)) n++;
    return n;
  };
  /** A sheet of `rows` identical contact rows: packs very tightly, like a bomb. */
  const repetitive = (rows: number, pad = 0) =>
    handWritten({
      sheets: [
        {
          name: "Bomb",
          sheetData: (function* () {
            yield `<row r="1"><c r="A1" t="inlineStr"><is><t>First Name</t></is></c><c r="B1" t="inlineStr"><is><t>Phone</t></is></c></row>`;
            // Rows and cells without references (legal, and what packs tightest): the same bytes again and again.
            const row = `<row><c t="inlineStr"><is><t>Ana${" ".repeat(pad)}</t></is></c><c><v>2128675301</v></c></row>`;
            for (let i = 2; i <= rows; i++) yield row;
          })(),
        },
      ],
    });
  /** The central directory entry of `name` in a zip: its offset (sizes at +20 compressed, +24 uncompressed). */
  function directoryEntry(zip: Uint8Array<ArrayBuffer>, name: string) {
    const v = new DataView(zip.buffer);
    for (let p = zip.length - 22; p >= 0; p--) {
      if (v.getUint32(p, true) !== 0x02014b50) continue;
      const len = v.getUint16(p + 28, true);
      if (new TextDecoder().decode(zip.subarray(p + 46, p + 46 + len)) === name) return { v, p };
    }
    throw new Error(`no ${name}`);
  }

  it("the limits are the product's: sheet XML ≤ 64 MB, packed ≤ 100:1, 100,000 rows", () => {
    expect(XLSX_LIMITS).toMatchObject({ partBytes: 64 * 1024 * 1024, ratio: 100, rows: 100_000 });
    expect(TOO_MANY_ROWS).toBe("The spreadsheet has more than 100,000 rows. Please split it into smaller files.");
  });

  it("a small file whose sheet declares a huge size or a bomb's ratio is refused from the central directory, before inflating", async () => {
    // ~20,000 rows of padded cells: ~2 MB of XML packed to a few KB (over 100:1).
    const bomb = await repetitive(20_000, 10);
    const { v, p } = directoryEntry(bomb, "xl/worksheets/sheet1.xml");
    expect(v.getUint32(p + 24, true) / v.getUint32(p + 20, true)).toBeGreaterThan(100);
    await expect(rowsOf(bomb)).rejects.toMatchObject({
      code: "payload_too_large",
      status: 413,
      message: TOO_BIG_UNPACKED,
    });
    // The same declared as 200 MB: refused with no inflating at all (the data is never read: corrupt it to show it).
    const huge = bomb.slice();
    const at = directoryEntry(huge, "xl/worksheets/sheet1.xml");
    at.v.setUint32(at.p + 24, 200 * 1024 * 1024, true);
    const local = at.v.getUint32(at.p + 42, true);
    for (let i = local + 30 + 30; i < local + 30 + 30 + 64; i++) huge[i] ^= 0x5a;
    await expect(rowsOf(huge)).rejects.toMatchObject({ status: 413, message: TOO_BIG_UNPACKED });
    // Under the ratio a sheet reads; over the byte limit it does not.
    const plain = await repetitive(50);
    expect(await rowsOf(plain)).toBe(50);
    await expect(rowsOf(plain, { ...XLSX_LIMITS, partBytes: 1000 })).rejects.toMatchObject({
      status: 413,
      message: TOO_BIG_UNPACKED,
    });
  });

  it("a central directory that lies about the size: the inflater stops once the bytes it produced pass the declared size", async () => {
    const bomb = await repetitive(20_000, 10);
    const { v, p } = directoryEntry(bomb, "xl/worksheets/sheet1.xml");
    // Declares 4 KB (under the ratio check's floor) for ~2 MB of XML.
    v.setUint32(p + 24, 4096, true);
    await expect(rowsOf(bomb)).rejects.toMatchObject({ status: 413, message: TOO_BIG_UNPACKED });
  });

  it("more rows than the limit: 413 with the row count to split by", async () => {
    const sheet = await repetitive(12);
    expect(await rowsOf(sheet, { ...XLSX_LIMITS, rows: 12 })).toBe(12);
    await expect(rowsOf(sheet, { ...XLSX_LIMITS, rows: 11 })).rejects.toMatchObject({
      status: 413,
      message: tooManyRows(11),
    });
  });

  it("a single row too long to be a contact (no closing tag for megabytes) is refused, not buffered", async () => {
    const wb = await handWritten({
      sheets: [
        {
          name: "Long",
          sheetData: (function* () {
            yield `<row r="1"><c r="A1" t="inlineStr"><is><t>`;
            for (let i = 0; i < 600; i++) yield "y".repeat(10_000);
          })(),
        },
      ],
    });
    await expect(rowsOf(wb)).rejects.toMatchObject({ status: 413, message: TOO_BIG_UNPACKED });
  });
});
