import { describe, expect, it } from "vitest";
import { parseContactsCsv } from "./csv-import";
import { decodeText } from "./decode-text";
import { readContactsFile } from "./read-contacts-file.server";

const CSV = "First Name,Last Name,Phone,Company\r\nJosé,Muñoz,2125550187,Café “Soleil” – 5€\r\n";

function utf16(text: string, littleEndian: boolean, bom: boolean) {
  const out = new Uint8Array((bom ? 2 : 0) + text.length * 2);
  const v = new DataView(out.buffer);
  if (bom) v.setUint16(0, 0xfeff, littleEndian);
  for (let i = 0; i < text.length; i++) v.setUint16((bom ? 2 : 0) + 2 * i, text.charCodeAt(i), littleEndian);
  return out;
}

/** windows-1252 bytes of `text` (only the characters the tests use). */
function cp1252(text: string) {
  const high: Record<string, number> = { "€": 0x80, "“": 0x93, "”": 0x94, "–": 0x96 };
  return Uint8Array.from([...text].map((c) => high[c] ?? c.charCodeAt(0)));
}

async function importedRow(bytes: Uint8Array<ArrayBuffer>) {
  const file = await readContactsFile(new File([bytes], "contacts.csv"));
  if (file.kind !== "csv") throw new Error("not csv");
  const parsed = parseContactsCsv(file.text);
  expect(parsed.errors).toEqual([]);
  return parsed.rows[0];
}

describe("CSV uploads in any common encoding (issue 23)", () => {
  it("decodes UTF-8 (with or without BOM), UTF-16 LE/BE with a BOM and without one, and windows-1252", () => {
    const utf8 = new TextEncoder().encode(CSV);
    const cases: [string, Uint8Array<ArrayBuffer>][] = [
      ["utf-8", utf8],
      ["utf-8 with BOM", Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8])],
      ["utf-16le BOM", utf16(CSV, true, true)],
      ["utf-16be BOM", utf16(CSV, false, true)],
      ["utf-16le no BOM", utf16(CSV, true, false)],
      ["utf-16be no BOM", utf16(CSV, false, false)],
      ["windows-1252", cp1252(CSV)],
    ];
    for (const [name, bytes] of cases) expect(decodeText(bytes), name).toBe(CSV);
  });

  it("Latin-1, UTF-16 and NUL-laden files import with the right names, no garbage", async () => {
    for (const bytes of [cp1252(CSV), utf16(CSV, true, true), utf16(CSV, true, false)]) {
      expect(await importedRow(bytes)).toMatchObject({
        firstName: "José",
        lastName: "Muñoz",
        company: "Café “Soleil” – 5€",
      });
    }
    const nul = new TextEncoder().encode(
      "First Name,Last Name,Phone\r\nA\u0000na,Di\u0007az\u001b,2125550187\u0000\r\n",
    );
    expect(await importedRow(nul)).toMatchObject({ firstName: "Ana", lastName: "Diaz", phone: "+12125550187" });
  });

  it("control characters are stripped from sheet cells too (the rules both paths share)", () => {
    const parsed = parseContactsCsv('First Name,Last Name,Phone\nAna,"Di\u0000az",2125550187\n');
    expect(parsed.rows[0]).toMatchObject({ lastName: "Diaz" });
  });
});
