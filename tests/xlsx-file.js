// Writes .xlsx files from SpreadsheetML parts, as Excel lays them out (shared strings, styles, rich text, prefixes —
// whatever a test puts in the XML), for the streaming reader's tests and the spreadsheet benchmark. A zip with each
// part deflated by CompressionStream("deflate-raw"), which Node and workerd both have. Types: xlsx-file.d.ts.

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(crc, bytes) {
  let c = crc ^ 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One part: its text (a string, or string chunks for big sheets), deflated, with CRC and sizes. */
async function deflatePart(content, store) {
  const encoder = new TextEncoder();
  const chunks = typeof content === "string" ? [content] : content;
  let crc = 0;
  let size = 0;
  const compressed = [];
  if (store) {
    for await (const text of chunks) {
      const bytes = encoder.encode(text);
      crc = crc32(crc, bytes);
      size += bytes.length;
      compressed.push(bytes);
    }
  } else {
    const cs = new CompressionStream("deflate-raw");
    const writer = cs.writable.getWriter();
    const reading = (async () => {
      const reader = cs.readable.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        compressed.push(value);
      }
    })();
    for await (const text of chunks) {
      const bytes = encoder.encode(text);
      crc = crc32(crc, bytes);
      size += bytes.length;
      await writer.write(bytes);
    }
    await writer.close();
    await reading;
  }
  return { crc, size, compressed, compressedSize: compressed.reduce((a, c) => a + c.length, 0) };
}

/**
 * A zip of `parts` (path → text or an iterable of text chunks), deflated unless `store`. Returns the file's bytes.
 * @param {Record<string, string | Iterable<string> | AsyncIterable<string>>} parts
 * @param {{ store?: boolean }} [opts]
 */
export async function zipParts(parts, opts = {}) {
  const out = [];
  const central = [];
  let offset = 0;
  const names = new TextEncoder();
  for (const [path, content] of Object.entries(parts)) {
    const name = names.encode(path);
    const p = await deflatePart(content, Boolean(opts.store));
    const method = opts.store ? 0 : 8;
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(8, method, true);
    local.setUint32(14, p.crc, true);
    local.setUint32(18, p.compressedSize, true);
    local.setUint32(22, p.size, true);
    local.setUint16(26, name.length, true);
    out.push(new Uint8Array(local.buffer), name, ...p.compressed);
    const cd = new DataView(new ArrayBuffer(46));
    cd.setUint32(0, 0x02014b50, true);
    cd.setUint16(4, 20, true);
    cd.setUint16(6, 20, true);
    cd.setUint16(10, method, true);
    cd.setUint32(16, p.crc, true);
    cd.setUint32(20, p.compressedSize, true);
    cd.setUint32(24, p.size, true);
    cd.setUint16(28, name.length, true);
    cd.setUint32(42, offset, true);
    central.push(new Uint8Array(cd.buffer), name);
    offset += 30 + name.length + p.compressedSize;
  }
  const cdSize = central.reduce((a, c) => a + c.length, 0);
  const eocd = new DataView(new ArrayBuffer(22));
  eocd.setUint32(0, 0x06054b50, true);
  eocd.setUint16(8, Object.keys(parts).length, true);
  eocd.setUint16(10, Object.keys(parts).length, true);
  eocd.setUint32(12, cdSize, true);
  eocd.setUint32(16, offset, true);
  const all = [...out, ...central, new Uint8Array(eocd.buffer)];
  const bytes = new Uint8Array(all.reduce((a, c) => a + c.length, 0));
  let at = 0;
  for (const c of all) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const RNS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
// Excel declares the x14ac prefix its rows' dyDescent attribute uses.
const MC =
  'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac"';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/** XML text escaping, as Excel writes it. */
export const esc = (s) =>
  String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Spreadsheet column letters for a 0-based index (0 → A, 26 → AA). */
export function colName(i) {
  let s = "";
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/**
 * The parts of a workbook: `sheets` in order (each its sheetData XML, or chunks of it), the shared strings part's <si>
 * items (or none), styles' numFmts and cellXfs XML, the 1904 date system.
 * @param {{ sheets: { name: string, sheetData: string | Iterable<string> | AsyncIterable<string>, prefix?: string }[],
 *   sharedStrings?: string | Iterable<string> | AsyncIterable<string>, sharedCount?: number, numFmts?: string, cellXfs?: string, date1904?: boolean }} wb
 */
export function workbookParts(wb) {
  const sheets = wb.sheets.map((s, i) => ({ ...s, id: i + 1 }));
  const parts = {
    "[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets.map((s) => `<Override PartName="/xl/worksheets/sheet${s.id}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join("")}<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${wb.sharedStrings !== undefined ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : ""}</Types>`,
    "_rels/.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/workbook.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook ${NS} ${RNS}><workbookPr${wb.date1904 ? ' date1904="1"' : ""} defaultThemeVersion="166925"/><bookViews><workbookView xWindow="0" yWindow="0" windowWidth="28800" windowHeight="12300"/></bookViews><sheets>${sheets.map((s) => `<sheet name="${esc(s.name)}" sheetId="${s.id}" r:id="rId${s.id}"/>`).join("")}</sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map((s) => `<Relationship Id="rId${s.id}" Type="${REL}/worksheet" Target="worksheets/sheet${s.id}.xml"/>`).join("")}<Relationship Id="rIdS" Type="${REL}/styles" Target="styles.xml"/>${wb.sharedStrings !== undefined ? `<Relationship Id="rIdT" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : ""}</Relationships>`,
    "xl/styles.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet ${NS}>${wb.numFmts ?? ""}<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>${wb.cellXfs ?? '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>'}</styleSheet>`,
  };
  for (const s of sheets) {
    const p = s.prefix ?? "";
    const ns = p ? `xmlns:${p.slice(0, -1)}="http://schemas.openxmlformats.org/spreadsheetml/2006/main"` : NS;
    parts[`xl/worksheets/sheet${s.id}.xml`] = (async function* () {
      yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${p}worksheet ${ns} ${RNS} ${MC}><${p}sheetViews><${p}sheetView workbookViewId="0"/></${p}sheetViews><${p}sheetFormatPr defaultRowHeight="15"/><${p}sheetData>`;
      if (typeof s.sheetData === "string") yield s.sheetData;
      else for await (const chunk of s.sheetData) yield chunk;
      yield `</${p}sheetData><${p}pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></${p}worksheet>`;
    })();
  }
  if (wb.sharedStrings !== undefined) {
    const items = wb.sharedStrings;
    parts["xl/sharedStrings.xml"] = (async function* () {
      yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst ${NS}${wb.sharedCount !== undefined ? ` count="${wb.sharedCount}" uniqueCount="${wb.sharedCount}"` : ""}>`;
      if (typeof items === "string") yield items;
      else for await (const chunk of items) yield chunk;
      yield "</sst>";
    })();
  }
  return parts;
}
