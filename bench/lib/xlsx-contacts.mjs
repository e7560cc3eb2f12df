// A contacts workbook as Excel writes one (text in the shared strings, ZIP codes and dates as numbers with styles,
// each row's `spans`), of a given size: the spreadsheet benchmark's input. The columns are a CRM export's: the eight
// the import maps plus the ones it ignores (lead source, status, owner, created date, notes).
import { utils, write } from "@e965/xlsx";
import { colName, esc, workbookParts, zipParts } from "../../tests/xlsx-file.js";
import { COMMON_COMPANY, COMPANIES as OTHER_COMPANIES, FIRST, LAST, PLACES } from "./names.mjs";

const COMPANIES = [COMMON_COMPANY, ...OTHER_COMPANIES];
const ZIPS = PLACES.map(([, , zip]) => Number(zip));
const SOURCES = ["Web form", "Referral", "Door knock", "Trade show", "Facebook ad"];
const STATUSES = ["New", "Contacted", "Qualified", "Proposal sent", "Closed won", "Closed lost"];
// The Owner column names a Helio user or nobody (decision 050 refuses a row whose owner is no user): the bench's own
// user (bench/lib/helio.mjs createBenchUser) on half the rows.
const OWNERS = ["Bench Runner", ""];
const STREETS = ["Oak", "Maple", "Cedar", "Pine", "Elm", "Sunset", "Lakeview", "Hillcrest"];
export const HEADER = [
  "First Name",
  "Last Name",
  "Phone Number",
  "Email",
  "Company",
  "Street Address",
  "City",
  "State",
  "Zip",
  "Lead Source",
  "Status",
  "Owner",
  "Created",
  "Notes",
];

const NOTE_WORDS = (
  "called left voicemail wants quote kw roof south west east shade oak pine tree bill summer winter july august " +
  "battery backup ev charger financing lease loan cash spouse home weekends evenings text only email prefers " +
  "panels inverter permit utility net metering tesla enphase rebate county hoa approval trench meter upgrade"
).split(" ");

/** A rep's note of about `chars` characters, different for every row (deterministic from r). */
function longNote(r, chars) {
  let out = `Called ${1 + (r % 28)}/${1 + (r % 12)}:`;
  for (let x = (r * 2654435761 + 1) >>> 0; out.length < chars; ) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += ` ${NOTE_WORDS[(x >>> 8) % NOTE_WORDS.length]}`;
  }
  return out.slice(0, chars);
}

/**
 * Row r's values: unique phone, email and street address; the rest drawn from small lists (shared strings repeat).
 * `noteChars` > 0 gives every row a note of about that length (a wider file at the import's row cap).
 */
export function contactRow(r, noteChars = 0) {
  const [city, state] = PLACES[r % PLACES.length];
  const area = ["312", "415", "512", "602", "720", "813"][Math.floor(r / 20_000) % 6];
  const phone = `(${area}) ${String(230 + (Math.floor(r / 10_000) % 700)).padStart(3, "0")}-${String(r % 10_000).padStart(4, "0")}`;
  const first = FIRST[r % FIRST.length];
  const last = LAST[(r * 7) % LAST.length];
  return [
    first,
    last,
    phone,
    `${first}.${last}.${r}@example${r % 40}.com`.toLowerCase(),
    COMPANIES[r % COMPANIES.length],
    `${100 + (r % 9800)} ${STREETS[r % STREETS.length]} St`,
    city,
    state,
    ZIPS[r % ZIPS.length], // a number, as Excel keeps a typed ZIP code
    SOURCES[r % SOURCES.length],
    STATUSES[(r * 3) % STATUSES.length],
    OWNERS[r % OWNERS.length],
    45000 + (r % 900), // a date serial, styled as a date
    noteChars > 0
      ? longNote(r, noteChars)
      : r % 5 === 0
        ? `Called ${1 + (r % 28)}/${1 + (r % 12)}: wants a quote for ${4 + (r % 9)} kW`
        : "",
  ];
}

/**
 * An .xlsx of `rows` contacts (plus the header), built as a stream so the generator's memory stays small. Returns
 * the file's bytes and how many rows it holds.
 */
export async function contactsXlsx(rows, noteChars = 0) {
  const index = new Map();
  const strings = [];
  const sst = (s) => {
    let i = index.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      index.set(s, i);
    }
    return i;
  };
  async function* sheetData() {
    let chunk = "";
    for (let r = 0; r <= rows; r++) {
      const values = r === 0 ? HEADER : contactRow(r - 1, noteChars);
      let row = `<row r="${r + 1}" spans="1:${HEADER.length}" x14ac:dyDescent="0.25">`;
      values.forEach((v, c) => {
        const ref = `${colName(c)}${r + 1}`;
        if (v === "") return;
        if (typeof v === "number") row += `<c r="${ref}"${c === 12 ? ' s="1"' : ""}><v>${v}</v></c>`;
        else row += `<c r="${ref}" t="s"><v>${sst(v)}</v></c>`;
      });
      chunk += row + "</row>";
      if (chunk.length > 1 << 16) {
        yield chunk;
        chunk = "";
      }
    }
    yield chunk;
  }
  // The sheet first: it fills the shared-string table the second part then writes.
  const sheet = [];
  for await (const c of sheetData()) sheet.push(c);
  async function* sharedStrings() {
    let chunk = "";
    for (const s of strings) {
      chunk += /^\s|\s$/.test(s) ? `<si><t xml:space="preserve">${esc(s)}</t></si>` : `<si><t>${esc(s)}</t></si>`;
      if (chunk.length > 1 << 16) {
        yield chunk;
        chunk = "";
      }
    }
    yield chunk;
  }
  const parts = workbookParts({
    sheets: [{ name: "Contacts", sheetData: sheet }],
    sharedStrings: sharedStrings(),
    sharedCount: strings.length,
    numFmts: '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/></numFmts>',
    cellXfs:
      '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>',
  });
  const bytes = await zipParts(parts);
  const encoder = new TextEncoder();
  // What the reader holds for them (read-xlsx-rows: UTF-8 bytes plus a 4-byte end offset each, trimmed once read).
  const sharedStringBytes = strings.reduce((a, s) => a + encoder.encode(s).length, 0) + 4 * strings.length;
  return { bytes, rows, sharedStrings: strings.length, sharedStringBytes };
}

/**
 * An .xlsx of as many rows as fit in `targetBytes` (sized from a small one, then trimmed until it fits), at most
 * `maxRows` of them: past that many a CRM export is wider, not longer — every row gets a longer note, sized so the
 * file still comes close to `targetBytes` (Helio imports at most MAX_SHEET_ROWS rows a file).
 */
export async function contactsXlsxOfSize(targetBytes, maxRows = Infinity) {
  const probe = await contactsXlsx(20_000);
  let rows = Math.floor((20_000 * targetBytes) / probe.bytes.length);
  let noteChars = 0;
  if (rows > maxRows) {
    rows = maxRows;
    // Each note's bytes in the file, measured on a small sample, then corrected on the real size.
    const wide = await contactsXlsx(20_000, 200);
    const perChar = (wide.bytes.length - probe.bytes.length) / 20_000 / 200;
    const plain = (probe.bytes.length * rows) / 20_000;
    noteChars = Math.max(20, Math.floor((targetBytes - plain) / rows / perChar));
  }
  let file = await contactsXlsx(rows, noteChars);
  while (file.bytes.length > targetBytes) {
    if (noteChars > 0) noteChars = Math.floor(noteChars * (targetBytes / file.bytes.length) * 0.995);
    else rows = Math.floor(((rows * targetBytes) / file.bytes.length) * 0.999);
    file = await contactsXlsx(rows, noteChars);
  }
  return { ...file, noteChars };
}

/** The same contacts as an .xls (Excel 97–2003, written by SheetJS with a shared string table) of at most `targetBytes`. */
export async function contactsXlsOfSize(targetBytes) {
  const xls = (rows) => {
    const aoa = [HEADER];
    for (let r = 0; r < rows; r++) aoa.push(contactRow(r));
    const book = utils.book_new();
    utils.book_append_sheet(book, utils.aoa_to_sheet(aoa), "Contacts");
    return { bytes: new Uint8Array(write(book, { type: "array", bookType: "biff8", bookSST: true })), rows };
  };
  let file = xls(1000);
  let rows = Math.floor((1000 * targetBytes) / file.bytes.length);
  file = xls(rows);
  while (file.bytes.length > targetBytes) {
    rows = Math.floor(((rows * targetBytes) / file.bytes.length) * 0.999);
    file = xls(rows);
  }
  return file;
}
