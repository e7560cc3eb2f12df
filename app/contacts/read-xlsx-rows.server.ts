// The first sheet of an .xlsx, row by row, in bounded memory (decision 019). SheetJS reads the whole workbook into
// objects first: a 9.4 MB file took ~178 MB of heap, over a Worker's 128 MB. An .xlsx is a zip of XML parts; this
// reads the zip's central directory, inflates only the parts it needs with DecompressionStream("deflate-raw") straight
// from the uploaded File, and scans the worksheet's XML as it streams: a row at a time goes to the caller. The shared
// strings (every text cell points into them by index, in any order) are the one thing held whole: as UTF-8 bytes in
// one growing buffer, capped. Cell text is what SheetJS's sheet_to_csv gives (its own number formatter, SSF, for
// numbers and dates), so both readers produce the same rows (read-xlsx-rows.test.ts compares them).
import { SSF } from "@e965/xlsx";
import { AppError } from "~/lib/app-error";
import { MAX_SHEET_ROWS } from "./upload-limits";
import { formatCount } from "~/lib/format-count";

export const SPREADSHEET_PARSE_FAILED = "Failed to read the spreadsheet. Please check the file and try again.";
export const SPREADSHEET_ENCRYPTED =
  "This spreadsheet is password-protected or in an older format saved as .xlsx. Open it in Excel and save it as .xlsx without a password, or as CSV.";

/** One worksheet row: its number as the spreadsheet shows it (1-based) and its cells' text from column A on. */
export type SheetRow = { row: number; cells: string[] };

export type XlsxLimits = {
  /** UTF-8 bytes of all shared strings together (they are held for random access). */
  sharedStringBytes: number;
  sharedStrings: number;
  /**
   * Inflated bytes of one part: bounds the CPU a small, highly compressed file can cost. Checked against the zip's
   * central directory before anything is inflated, and again on the bytes actually inflated (a directory can lie).
   */
  partBytes: number;
  /** Inflated ÷ compressed size of a part over RATIO_FLOOR bytes: a zip bomb's parts are far past it (~1000:1). */
  ratio: number;
  /** Rows of the sheet (with a value) at most: the product is sized for 100,000 contacts per file. */
  rows: number;
};

/** Parts smaller than this are not ratio-checked: a small part of repeated text can legitimately pack very tightly. */
const RATIO_FLOOR = 1024 * 1024;
/** A row (or shared string) of XML longer than this is not a contact: its text would be held whole while it streams. */
const MAX_ELEMENT_CHARS = 4 * 1024 * 1024;
/** Compressed bytes fed to the inflater at a time: one step then yields at most ~1 KB × 1032 (deflate's maximum ratio). */
const INFLATE_STEP = 4 * 1024;

/**
 * 24 MB of distinct text is ~600,000 distinct phone numbers, emails and addresses: far beyond the 100,000 contacts a
 * team imports in a file, and with the reader's own ~20 MB it keeps the upload inside the 64 MB budget. 100,000 rows of
 * contacts are ~30–50 MB of sheet XML, so a part over 64 MB, or one packed over 100:1 (Excel's sheets pack ~5–20:1), is
 * a zip bomb or not a contact list (issue 23: a 205 KB file inflating to 200 MB took the local Worker to 2.26 GB).
 */
export const XLSX_LIMITS: XlsxLimits = {
  sharedStringBytes: 24 * 1024 * 1024,
  sharedStrings: 2_000_000,
  partBytes: 64 * 1024 * 1024,
  ratio: 100,
  rows: MAX_SHEET_ROWS,
};
export const TOO_MUCH_TEXT = `This spreadsheet has more distinct text than can be read here (over ${XLSX_LIMITS.sharedStringBytes / 1024 / 1024} MB). Please split it, or save it as CSV.`;

export const TOO_BIG_UNPACKED =
  "The spreadsheet is too large to read here once unpacked. Please split it, or save it as CSV.";
export const tooManyRows = (rows: number) =>
  `The spreadsheet has more than ${formatCount(rows)} rows. Please split it into smaller files.`;
export const TOO_MANY_ROWS = tooManyRows(XLSX_LIMITS.rows);

const parseFailed = (cause?: unknown) => new AppError("validation", SPREADSHEET_PARSE_FAILED, { cause });

// ---------------------------------------------------------------------------------------------------------------
// Zip: the central directory at the end, then each needed entry's bytes sliced from the File (no copy of the rest).

type ZipEntry = { method: number; flags: number; compressedSize: number; size: number; localOffset: number };

const u16 = (v: DataView, o: number) => v.getUint16(o, true);
const u32 = (v: DataView, o: number) => v.getUint32(o, true);
const bytesOf = async (file: Blob, start: number, end: number) =>
  new DataView(await file.slice(start, end).arrayBuffer());

/** The zip's entries by lower-cased name (producers disagree on the case of part names; SheetJS ignores it too). */
async function readZipDirectory(file: Blob): Promise<Map<string, ZipEntry>> {
  const head = await bytesOf(file, 0, 4);
  // An OLE compound file: an encrypted .xlsx (Excel wraps those in one) or an old .xls renamed.
  if (head.byteLength === 4 && u32(head, 0) === 0xe011cfd0) throw new AppError("validation", SPREADSHEET_ENCRYPTED);
  const tailStart = Math.max(0, file.size - (22 + 0xffff));
  const tail = await bytesOf(file, tailStart, file.size);
  let eocd = -1;
  for (let i = tail.byteLength - 22; i >= 0; i--) {
    if (u32(tail, i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw parseFailed();
  const count = u16(tail, eocd + 10);
  const cdSize = u32(tail, eocd + 12);
  const cdOffset = u32(tail, eocd + 16);
  // ZIP64 (over 4 GB or 65,535 entries) is never an uploadable contact list.
  if (count === 0xffff || cdOffset === 0xffffffff || cdOffset + cdSize > file.size) throw parseFailed();
  const cd = await bytesOf(file, cdOffset, cdOffset + cdSize);
  const entries = new Map<string, ZipEntry>();
  const names = new TextDecoder();
  for (let p = 0, n = 0; n < count; n++) {
    if (p + 46 > cd.byteLength || u32(cd, p) !== 0x02014b50) throw parseFailed();
    const nameLength = u16(cd, p + 28);
    const name = names.decode(new Uint8Array(cd.buffer, cd.byteOffset + p + 46, nameLength));
    entries.set(name.replace(/^\/+/, "").toLowerCase(), {
      flags: u16(cd, p + 8),
      method: u16(cd, p + 10),
      compressedSize: u32(cd, p + 20),
      size: u32(cd, p + 24),
      localOffset: u32(cd, p + 42),
    });
    p += 46 + nameLength + u16(cd, p + 30) + u16(cd, p + 32);
  }
  return entries;
}

/**
 * Refuses, from the central directory alone, a part whose declared size passes `maxBytes` or packs tighter than
 * `ratio` (a zip bomb), before a byte of it is inflated.
 */
function checkDeclaredSize(entry: ZipEntry, maxBytes: number, ratio: number) {
  if (entry.size > maxBytes) throw new AppError("payload_too_large", TOO_BIG_UNPACKED);
  if (entry.size > RATIO_FLOOR && entry.size > entry.compressedSize * ratio)
    throw new AppError("payload_too_large", TOO_BIG_UNPACKED);
}

/** Splits chunks into pieces of at most `size` bytes, so that the inflater's output per step stays small. */
const rechunk = (size: number) =>
  new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
    transform(chunk, controller) {
      for (let i = 0; i < chunk.byteLength; i += size)
        controller.enqueue(chunk.subarray(i, Math.min(i + size, chunk.byteLength)));
    },
  });

/**
 * An entry's inflated text as a stream of string chunks. Fails before inflating when the directory declares too much
 * (checkDeclaredSize), and while inflating as soon as the bytes actually produced pass the declared size or
 * `maxBytes` (a directory that lies about sizes).
 */
async function entryText(
  file: Blob,
  entry: ZipEntry,
  maxBytes: number,
  ratio: number = XLSX_LIMITS.ratio,
): Promise<ReadableStream<string>> {
  if (entry.flags & 1) throw new AppError("validation", SPREADSHEET_ENCRYPTED);
  if (entry.method !== 0 && entry.method !== 8) throw parseFailed();
  checkDeclaredSize(entry, maxBytes, ratio);
  // The central directory's size is exact even when the local header defers it to a data descriptor (flag bit 3).
  const limit = Math.min(maxBytes, entry.size);
  const local = await bytesOf(file, entry.localOffset, entry.localOffset + 30);
  if (local.byteLength < 30 || u32(local, 0) !== 0x04034b50) throw parseFailed();
  const start = entry.localOffset + 30 + u16(local, 26) + u16(local, 28);
  const raw = file.slice(start, start + entry.compressedSize).stream();
  const inflated =
    entry.method === 8
      ? raw.pipeThrough(rechunk(INFLATE_STEP)).pipeThrough(new DecompressionStream("deflate-raw"))
      : raw;
  let seen = 0;
  const capped = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > limit) controller.error(new AppError("payload_too_large", TOO_BIG_UNPACKED));
      else controller.enqueue(chunk);
    },
  });
  // workers-types declares TextDecoderStream's writable side for ArrayBuffer chunks only; it takes Uint8Array.
  return inflated
    .pipeThrough(capped)
    .pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>);
}

async function wholeText(file: Blob, entry: ZipEntry | undefined, maxBytes: number): Promise<string> {
  if (!entry) return "";
  let out = "";
  const reader = (await entryText(file, entry, maxBytes)).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out += value;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// XML: the few elements of SpreadsheetML this needs, found with indexOf in streamed text (SheetJS's own rules for
// entities, the _xHHHH_ escapes and line ends).

const ENTITIES: Record<string, string> = { "&quot;": '"', "&apos;": "'", "&gt;": ">", "&lt;": "<", "&amp;": "&" };
const ENTITY_RE = /&(?:quot|apos|gt|lt|amp|#x?([\da-fA-F]+));/gi;
const CODE_RE = /_x([\da-fA-F]{4})_/gi;

export function unescapeXml(text: string): string {
  let s = text;
  const cdata = s.indexOf("<![CDATA[");
  if (cdata >= 0) {
    const end = s.indexOf("]]>", cdata);
    return (
      unescapeXml(s.slice(0, cdata)) +
      s.slice(cdata + 9, end < 0 ? undefined : end) +
      (end < 0 ? "" : unescapeXml(s.slice(end + 3)))
    );
  }
  if (s.indexOf("&") >= 0) {
    s = s.replace(
      ENTITY_RE,
      (all, code: string | undefined) =>
        ENTITIES[all] ?? (String.fromCharCode(parseInt(code ?? "", all.indexOf("x") > -1 ? 16 : 10)) || all),
    );
  }
  if (s.indexOf("_x") >= 0 || s.indexOf("_X") >= 0)
    s = s.replace(CODE_RE, (_, c: string) => String.fromCharCode(parseInt(c, 16)));
  return s.indexOf("\r\n") >= 0 ? s.replace(/\r\n/g, "\n") : s;
}

/** One attribute's value from a start tag's text: a fast path for `name="…"`, the general parse otherwise. */
function attrOf(tag: string, name: string): string | undefined {
  const key = name + "=";
  for (let i = tag.indexOf(key); i >= 0; i = tag.indexOf(key, i + 1)) {
    const before = tag.charCodeAt(i - 1);
    if (i > 0 && before !== 32 && before !== 9 && before !== 10 && before !== 13) continue;
    const q = tag.charCodeAt(i + key.length);
    if (q !== 34 && q !== 39) break;
    const end = tag.indexOf(q === 34 ? '"' : "'", i + key.length + 1);
    return end < 0 ? undefined : tag.slice(i + key.length + 1, end);
  }
  // `name = "…"` (spaces around `=`, legal XML that no spreadsheet writer produces): the general parse.
  return spacedAttr(name).test(tag) ? attrsOf(tag)[name] : undefined;
}
const spacedAttrs = new Map<string, RegExp>();
const spacedAttr = (name: string) => {
  let re = spacedAttrs.get(name);
  if (!re) spacedAttrs.set(name, (re = new RegExp(`(?:^|\\s)${name}\\s+=|(?:^|\\s)${name}=\\s`)));
  return re;
};

const ATTR_RE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
function attrsOf(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  ATTR_RE.lastIndex = 0;
  for (let m = ATTR_RE.exec(tag); m; m = ATTR_RE.exec(tag)) out[m[1]] = m[2] ?? m[3];
  return out;
}

/** Whether `s` has element `name` starting at `i` (followed by space, `>` or `/`, so `<row` is not `<rowBreaks`). */
function elementAt(s: string, i: number, open: string): boolean {
  const c = s.charCodeAt(i + open.length);
  return c === 32 || c === 62 || c === 47 || c === 9 || c === 10 || c === 13;
}

/** Text of an element's first `<t>` (or of all `<t>` runs outside phonetic `<rPh>`), SheetJS's parse_si. */
function richText(content: string, p: string): string {
  const x = content.trim();
  if (!x) return "";
  const t = `<${p}t`;
  if (x.startsWith(t) && elementAt(x, 0, t)) {
    const close = x.indexOf(`</${p}t>`);
    return unescapeXml(x.slice(x.indexOf(">") + 1, close < 0 ? undefined : close));
  }
  if (x.indexOf(`<${p}r>`) < 0 && x.indexOf(`<${p}r `) < 0) return "";
  const runs = x.replace(new RegExp(`<${p}rPh\\b[\\s\\S]*?</${p}rPh>`, "g"), "");
  let out = "";
  const re = new RegExp(`<${p}t\\b[^<>]*>([^<]*)</${p}t>`, "g");
  for (let m = re.exec(runs); m; m = re.exec(runs)) out += m[1];
  return unescapeXml(out);
}

/** The text of `<name>…</name>` inside `s` (first one), or undefined. */
function childText(s: string, p: string, name: string): string | undefined {
  const open = `<${p}${name}`;
  let i = s.indexOf(open);
  while (i >= 0 && !elementAt(s, i, open)) i = s.indexOf(open, i + 1);
  if (i < 0) return undefined;
  const gt = s.indexOf(">", i);
  if (gt < 0 || s.charCodeAt(gt - 1) === 47) return undefined;
  const end = s.indexOf(`</${p}${name}>`, gt);
  return end < 0 ? undefined : s.slice(gt + 1, end);
}

type XmlElement = { attrs: string; content: string | null; prefix: string };

/**
 * Each complete `<name …>…</name>` (content) or `<name …/>` (content null) of a streamed part, in order, holding only
 * the text after the last complete one; stops at `stopAt` (e.g. `</sheetData>`). `root` is the part's root element,
 * whose namespace prefix (`x:` in some producers' files) the other names take.
 */
async function* xmlElements(
  stream: ReadableStream<string>,
  name: (prefix: string) => string,
  opts: { root: string; stopAt?: (prefix: string) => string },
): AsyncGenerator<XmlElement> {
  const reader = stream.getReader();
  let buf = "";
  let prefix: string | null = null;
  let open = "";
  let close = "";
  let stop = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buf += value;
      if (buf.length > MAX_ELEMENT_CHARS) throw new AppError("payload_too_large", TOO_BIG_UNPACKED);
      if (prefix === null) {
        const root = new RegExp(`<(\\w+:)?${opts.root}[\\s>/]`).exec(buf);
        if (!root) {
          if (buf.length > 1 << 20) throw parseFailed();
          continue;
        }
        prefix = root[1] ?? "";
        open = `<${name(prefix)}`;
        close = `</${name(prefix)}>`;
        stop = opts.stopAt ? opts.stopAt(prefix) : "\u0000";
      }
      let pos = 0;
      // Once per chunk: searched per element, a marker that is not there would rescan the whole buffer each time.
      const stopIndex = buf.indexOf(stop);
      for (;;) {
        let s = buf.indexOf(open, pos);
        while (s >= 0 && s + open.length < buf.length && !elementAt(buf, s, open)) s = buf.indexOf(open, s + 1);
        if (stopIndex >= 0 && (s < 0 || stopIndex < s)) return;
        if (s < 0 || s + open.length >= buf.length) {
          // Keep a tail long enough to hold a split opening tag or the stop marker.
          pos = Math.max(pos, buf.length - Math.max(open.length, stop.length));
          break;
        }
        const gt = buf.indexOf(">", s);
        if (gt < 0) {
          pos = s;
          break;
        }
        if (buf.charCodeAt(gt - 1) === 47) {
          yield { attrs: buf.slice(s + open.length, gt - 1), content: null, prefix };
          pos = gt + 1;
          continue;
        }
        const end = buf.indexOf(close, gt);
        if (end < 0) {
          pos = s;
          break;
        }
        yield { attrs: buf.slice(s + open.length, gt), content: buf.slice(gt + 1, end), prefix };
        pos = end + close.length;
      }
      buf = buf.slice(pos);
    }
  } finally {
    reader.releaseLock();
    await stream.cancel().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Shared strings: UTF-8 bytes in one growing buffer plus their offsets; decoded when a cell asks for one.

class SharedStrings {
  private bytes = new Uint8Array(1 << 16);
  private ends = new Uint32Array(1 << 12);
  private used = 0;
  count = 0;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  constructor(private readonly limits: XlsxLimits) {}

  add(s: string) {
    if (this.count >= this.limits.sharedStrings) throw new AppError("payload_too_large", TOO_MUCH_TEXT);
    // encodeInto writes at most 3 bytes per UTF-16 unit.
    const need = this.used + s.length * 3;
    if (need > this.bytes.length) {
      if (this.used + s.length > this.limits.sharedStringBytes) throw new AppError("payload_too_large", TOO_MUCH_TEXT);
      const grown = new Uint8Array(
        Math.max(need, Math.min(this.bytes.length * 2, this.limits.sharedStringBytes + 3 * s.length)),
      );
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    this.used += this.encoder.encodeInto(s, this.bytes.subarray(this.used)).written;
    if (this.used > this.limits.sharedStringBytes) throw new AppError("payload_too_large", TOO_MUCH_TEXT);
    if (this.count === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.ends[this.count++] = this.used;
  }

  get(i: number): string | undefined {
    if (!(i >= 0 && i < this.count)) return undefined;
    const start = i === 0 ? 0 : this.ends[i - 1];
    const end = this.ends[i];
    if (end - start < 48) {
      // Short ASCII (names, phones, emails): no decoder call.
      let ascii = true;
      for (let k = start; k < end; k++) if (this.bytes[k] > 127) ascii = false;
      if (ascii) return String.fromCharCode.apply(null, this.bytes.subarray(start, end) as unknown as number[]);
    }
    return this.decoder.decode(this.bytes.subarray(start, end));
  }

  /** Once all are read: drop the growth headroom (up to half the buffer) for the rest of the sheet. */
  seal() {
    this.bytes = this.bytes.slice(0, this.used);
    this.ends = this.ends.slice(0, this.count);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Workbook parts: which sheet is first, the 1904 date system, number formats.

/** SheetJS's SSFImplicit: built-in format ids Excel leaves to the locale, as SheetJS formats them. */
const IMPLICIT_FORMATS: Record<number, string> = {
  5: '"$"#,##0_);\\("$"#,##0\\)',
  6: '"$"#,##0_);[Red]\\("$"#,##0\\)',
  7: '"$"#,##0.00_);\\("$"#,##0.00\\)',
  8: '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)',
  23: "General",
  24: "General",
  25: "General",
  26: "General",
  27: "m/d/yy",
  28: "m/d/yy",
  29: "m/d/yy",
  30: "m/d/yy",
  31: "m/d/yy",
  32: "h:mm:ss",
  33: "h:mm:ss",
  34: "h:mm:ss",
  35: "h:mm:ss",
  36: "m/d/yy",
  41: '_(* #,##0_);_(* (#,##0);_(* "-"_);_(@_)',
  42: '_("$"* #,##0_);_("$"* (#,##0);_("$"* "-"_);_(@_)',
  43: '_(* #,##0.00_);_(* (#,##0.00);_(* "-"??_);_(@_)',
  44: '_("$"* #,##0.00_);_("$"* (#,##0.00);_("$"* "-"??_);_(@_)',
  50: "m/d/yy",
  51: "m/d/yy",
  52: "m/d/yy",
  53: "m/d/yy",
  54: "m/d/yy",
  55: "m/d/yy",
  56: "m/d/yy",
  57: "m/d/yy",
  58: "m/d/yy",
  59: "0",
  60: "0.00",
  61: "#,##0",
  62: "#,##0.00",
  63: '"$"#,##0_);\\("$"#,##0\\)',
  64: '"$"#,##0_);[Red]\\("$"#,##0\\)',
  65: '"$"#,##0.00_);\\("$"#,##0.00\\)',
  66: '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)',
  67: "0%",
  68: "0.00%",
  69: "# ?/?",
  70: "# ??/??",
  71: "m/d/yy",
  72: "m/d/yy",
  73: "d-mmm-yy",
  74: "d-mmm",
  75: "mmm-yy",
  76: "h:mm",
  77: "h:mm:ss",
  78: "m/d/yy h:mm",
  79: "mm:ss",
  80: "[h]:mm:ss",
  81: "mmss.0",
};
const BUILTIN_FORMATS = SSF.get_table() as Record<number, string>;

type Styles = { formatOfXf: number[]; codes: Map<number, string> };

function parseStyles(xml: string): Styles {
  const codes = new Map<number, string>();
  for (const m of xml.matchAll(/<(?:\w+:)?numFmt\b[^>]*>/g)) {
    const a = attrsOf(m[0]);
    const id = parseInt(a.numFmtId, 10);
    if (Number.isFinite(id) && a.formatCode !== undefined) codes.set(id, unescapeXml(a.formatCode));
  }
  const formatOfXf: number[] = [];
  const cellXfs = /<(?:\w+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(?:\w+:)?cellXfs>/.exec(xml)?.[1] ?? "";
  for (const m of cellXfs.matchAll(/<(?:\w+:)?xf\b[^>]*>/g)) {
    const id = parseInt(attrsOf(m[0]).numFmtId ?? "0", 10);
    formatOfXf.push(Number.isFinite(id) ? id : 0);
  }
  return { formatOfXf, codes };
}

const resolve = (base: string, target: string) => {
  if (target.startsWith("/")) return target.slice(1);
  const parts = base.split("/").slice(0, -1);
  for (const seg of target.split("/")) {
    if (seg === "..") parts.pop();
    else if (seg !== ".") parts.push(seg);
  }
  return parts.join("/");
};

/** Relationship id → target path (resolved against the part that owns the .rels). */
function parseRels(xml: string, owner: string): Map<string, { target: string; type: string }> {
  const out = new Map<string, { target: string; type: string }>();
  for (const m of xml.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
    const a = attrsOf(m[0]);
    if (a.Id && a.Target && a.TargetMode !== "External")
      out.set(a.Id, { target: resolve(owner, a.Target), type: a.Type ?? "" });
  }
  return out;
}

const relsPathOf = (part: string) => {
  const slash = part.lastIndexOf("/");
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
};

const columnOf = (ref: string) => {
  let c = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = ref.charCodeAt(i) - 64;
    if (d < 1 || d > 26) break;
    c = 26 * c + d;
  }
  return c - 1;
};

const BOOL_TRUE = new Set(["1", "true"]);

/** An ISO date (t="d") as a serial number in the workbook's date system, as SheetJS converts it. */
function serialOf(iso: string, date1904: boolean): number {
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) || !/T/.test(iso) ? iso : iso + "Z");
  return (ms - Date.UTC(1899, 11, 30)) / 86_400_000 - (date1904 ? 1462 : 0);
}

/**
 * Rows of the workbook's first sheet (the first in workbook.xml's order, as SheetJS's SheetNames[0]), as SheetJS's
 * sheet_to_csv would write their cells. Rows without any value are skipped (blankrows: false), so are cells without a
 * value. Throws a 400 for a file that is not a readable workbook and a 413 past the limits.
 */
export async function* readXlsxRows(file: Blob, limits: XlsxLimits = XLSX_LIMITS): AsyncGenerator<SheetRow> {
  let entries: Map<string, ZipEntry>;
  let sheetPath: string;
  let date1904: boolean;
  let styles: Styles;
  let strings: SharedStrings;
  try {
    entries = await readZipDirectory(file);
    const small = 16 * 1024 * 1024;
    const rootRels = parseRels(await wholeText(file, entries.get("_rels/.rels"), small), "");
    const workbookPath =
      [...rootRels.values()].find((r) => /\/officeDocument$/.test(r.type))?.target ?? "xl/workbook.xml";
    const workbookXml = await wholeText(file, entries.get(workbookPath.toLowerCase()), small);
    if (!workbookXml) throw parseFailed();
    const firstSheet = /<(?:\w+:)?sheet\b[^>]*>/.exec(workbookXml);
    if (!firstSheet) throw parseFailed();
    const sheetAttrs = attrsOf(firstSheet[0]);
    const relId = Object.entries(sheetAttrs).find(([k]) => k === "r:id" || /:id$/.test(k))?.[1];
    const rels = parseRels(
      await wholeText(file, entries.get(relsPathOf(workbookPath).toLowerCase()), small),
      workbookPath,
    );
    sheetPath = (relId && rels.get(relId)?.target) || "xl/worksheets/sheet1.xml";
    const pr = /<(?:\w+:)?workbookPr\b[^>]*>/.exec(workbookXml);
    date1904 = pr ? BOOL_TRUE.has(attrsOf(pr[0]).date1904 ?? "") : false;
    const relOf = (kind: string) => [...rels.values()].find((r) => r.type.endsWith(`/${kind}`))?.target;
    styles = parseStyles(await wholeText(file, entries.get((relOf("styles") ?? "xl/styles.xml").toLowerCase()), small));
    strings = new SharedStrings(limits);
    const sst = entries.get((relOf("sharedStrings") ?? "xl/sharedStrings.xml").toLowerCase());
    if (sst) {
      for await (const si of xmlElements(await entryText(file, sst, limits.partBytes, limits.ratio), (p) => `${p}si`, {
        root: "sst",
      })) {
        strings.add(si.content === null ? "" : richText(si.content, si.prefix));
      }
      strings.seal();
    }
  } catch (err) {
    throw err instanceof AppError ? err : parseFailed(err);
  }
  const sheet = entries.get(sheetPath.toLowerCase());
  if (!sheet) throw parseFailed();

  const formatCode = (id: number) => styles.codes.get(id) ?? BUILTIN_FORMATS[id] ?? IMPLICIT_FORMATS[id] ?? "General";
  const ssfOptions = { date1904 };
  const formatNumber = (v: number, xf: string | undefined) => {
    const id = xf === undefined ? 0 : (styles.formatOfXf[parseInt(xf, 10)] ?? 0);
    if (id === 0 && (v | 0) === v) return v.toString(10);
    return SSF.format(id === 0 ? "General" : formatCode(id), v, ssfOptions);
  };

  /** A cell's text as SheetJS's sheet_to_csv gives it; undefined for a cell SheetJS does not keep. */
  const cellText = (attrs: { t?: string; s?: string }, content: string, p: string): string | undefined => {
    const raw = childText(content, p, "v");
    const v = raw === undefined || raw === "" ? undefined : raw;
    const t = attrs.t;
    if (t === undefined && v === undefined) return undefined;
    switch (t ?? "n") {
      case "n":
        return v === undefined ? undefined : formatNumber(parseFloat(unescapeXml(v)), attrs.s);
      case "s":
        return v === undefined ? undefined : (strings.get(parseInt(v, 10)) ?? "");
      case "str":
        return v === undefined ? "" : unescapeXml(v);
      case "inlineStr": {
        const is = childText(content, p, "is");
        return is === undefined ? "" : richText(is, p);
      }
      case "b":
        return BOOL_TRUE.has(v ?? "") ? "TRUE" : "FALSE";
      case "e":
        return v === undefined ? "" : unescapeXml(v);
      case "d":
        return v === undefined ? undefined : formatNumber(serialOf(unescapeXml(v), date1904), attrs.s);
      default:
        return v === undefined ? undefined : unescapeXml(v);
    }
  };

  let rowNumber = 0;
  let rowsWithValues = 0;
  /** A row's cells (undefined when none has a value), SheetJS's parse_ws_xml_data for one <row>. */
  const rowCells = (content: string, p: string): string[] | undefined => {
    const cells: string[] = [];
    let any = false;
    let col = -1;
    const open = `<${p}c`;
    const close = `</${p}c>`;
    for (let i = content.indexOf(open); i >= 0; i = content.indexOf(open, i + 1)) {
      if (!elementAt(content, i, open)) continue;
      const gt = content.indexOf(">", i);
      if (gt < 0) break;
      const tag = content.slice(i + open.length, gt);
      const attrs = { r: attrOf(tag, "r"), t: attrOf(tag, "t"), s: attrOf(tag, "s") };
      col = attrs.r !== undefined ? columnOf(attrs.r) : col + 1;
      let inner = "";
      if (content.charCodeAt(gt - 1) !== 47) {
        const end = content.indexOf(close, gt);
        inner = content.slice(gt + 1, end < 0 ? undefined : end);
        i = end < 0 ? gt : end;
      } else i = gt;
      const text = cellText(attrs, inner, p);
      if (text === undefined || col < 0) continue;
      while (cells.length < col) cells.push("");
      cells[col] = text;
      any = true;
    }
    return any ? cells : undefined;
  };

  try {
    const stream = await entryText(file, sheet, limits.partBytes, limits.ratio);
    for await (const el of xmlElements(stream, (p) => `${p}row`, {
      root: "worksheet",
      stopAt: (p) => `</${p}sheetData>`,
    })) {
      const r = attrOf(el.attrs, "r");
      rowNumber = r !== undefined ? parseInt(r, 10) : rowNumber + 1;
      const cells = el.content === null ? undefined : rowCells(el.content, el.prefix);
      if (!cells) continue;
      if (++rowsWithValues > limits.rows) throw new AppError("payload_too_large", tooManyRows(limits.rows));
      yield { row: rowNumber, cells };
    }
  } catch (err) {
    throw err instanceof AppError ? err : parseFailed(err);
  }
}
