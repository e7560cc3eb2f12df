// Uploaded CSV bytes as text, whatever the spreadsheet that wrote them (issue 23): Excel's "Unicode text" is UTF-16
// (with or without a byte order mark), older Windows exports are windows-1252, and a stray NUL or control character
// must not reach a contact's fields. `file.text()` assumed UTF-8 and turned all of these into garbage.

/** windows-1252's 0x80–0x9F (the rest of its upper half is Latin-1, i.e. the code point itself); 0 = undefined. */
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0,
  0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

const CHUNK = 8192;

function fromCodes(codes: Uint16Array): string {
  let out = "";
  for (let i = 0; i < codes.length; i += CHUNK)
    out += String.fromCharCode.apply(null, codes.subarray(i, i + CHUNK) as unknown as number[]);
  return out;
}

function utf16(bytes: Uint8Array, littleEndian: boolean): string {
  const n = bytes.length >> 1;
  const codes = new Uint16Array(n);
  for (let i = 0; i < n; i++)
    codes[i] = littleEndian ? bytes[2 * i] | (bytes[2 * i + 1] << 8) : (bytes[2 * i] << 8) | bytes[2 * i + 1];
  return fromCodes(codes);
}

function windows1252(bytes: Uint8Array): string {
  const codes = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    codes[i] = b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80] || 0xfffd : b;
  }
  return fromCodes(codes);
}

/**
 * UTF-16 without a byte order mark: text that is mostly ASCII has a NUL in every other byte. Looks at the first 4 KB:
 * little-endian when most odd bytes are NUL and few even ones, big-endian the other way round.
 */
function utf16WithoutBom(bytes: Uint8Array): boolean | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul > pairs * 0.4 && evenNul < pairs * 0.1) return true;
  if (evenNul > pairs * 0.4 && oddNul < pairs * 0.1) return false;
  return null;
}

/** NUL and the C0 controls other than tab, line feed and carriage return (the CSV's own line ends), and DEL. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const CONTROL_CHARS = new RegExp(CONTROL_CHAR.source, "g");

/** Text with the control characters an imported field must not carry removed (tab and line breaks kept). */
export const withoutControlChars = (s: string) => (CONTROL_CHAR.test(s) ? s.replace(CONTROL_CHARS, "") : s);

/**
 * The text of an uploaded CSV: a BOM decides (UTF-8, UTF-16 LE/BE), then UTF-16 told by its NUL pattern, then UTF-8
 * when the bytes are valid UTF-8, else windows-1252 (a superset of Latin-1, what Excel on Windows writes). The BOM is
 * dropped and control characters are removed.
 */
export function decodeText(bytes: Uint8Array): string {
  let text: string;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    text = new TextDecoder("utf-8").decode(bytes.subarray(3));
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) text = utf16(bytes.subarray(2), true);
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = utf16(bytes.subarray(2), false);
  else {
    const le = utf16WithoutBom(bytes);
    if (le !== null) text = utf16(bytes, le);
    else {
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        text = windows1252(bytes);
      }
    }
  }
  return withoutControlChars(text);
}
