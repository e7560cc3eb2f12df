import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { smsSegments } from "./segments.js";

const gsm = (n: number) => "a".repeat(n);
const ucs = (n: number) => "ж".repeat(n); // Cyrillic: BMP, not GSM-7

describe("smsSegments", () => {
  it.each([
    ["empty", "", "GSM-7", 0, 0, 160],
    ["1 GSM char", "a", "GSM-7", 1, 1, 160],
    ["160 GSM chars", gsm(160), "GSM-7", 160, 1, 160],
    ["161 GSM chars", gsm(161), "GSM-7", 161, 2, 153],
    ["153*2 GSM chars", gsm(306), "GSM-7", 306, 2, 153],
    ["153*2+1 GSM chars", gsm(307), "GSM-7", 307, 3, 153],
    ["€ is an extension char (2 units)", "€", "GSM-7", 2, 1, 160],
    ["each of ^{}\\[~]| and form feed is 2 units", "^{}\\[~]|\f", "GSM-7", 18, 1, 160],
    ["80 × € = 160 units", "€".repeat(80), "GSM-7", 160, 1, 160],
    ["80 × € + a = 161 units", "€".repeat(80) + "a", "GSM-7", 161, 2, 153],
    ["GSM accents stay GSM-7", "àÄÖÑÜèéùìòÇØøÅåΔΦΓΛΩΠΨΣΘΞÆæßÉ¡¿§¤£¥@$\n\r", "GSM-7", 39, 1, 160],
    ["70 UCS-2 chars", ucs(70), "UCS-2", 70, 1, 70],
    ["71 UCS-2 chars", ucs(71), "UCS-2", 71, 2, 67],
    ["67*2 UCS-2 chars", ucs(134), "UCS-2", 134, 2, 67],
    ["67*2+1 UCS-2 chars", ucs(135), "UCS-2", 135, 3, 67],
    ["one non-GSM char switches the whole text", gsm(69) + "ж", "UCS-2", 70, 1, 70],
    ["ç (lowercase) is not GSM-7", "ç", "UCS-2", 1, 1, 70],
    ["emoji is 2 UTF-16 units", "😀", "UCS-2", 2, 1, 70],
    ["35 emoji = 70 units", "😀".repeat(35), "UCS-2", 70, 1, 70],
    ["36 emoji = 72 units", "😀".repeat(36), "UCS-2", 72, 2, 67],
  ])("%s", (_name, text, encoding, units, segments, perSegment) => {
    expect(smsSegments(text)).toEqual({ encoding, units, segments, perSegment });
  });

  it("does not split an extension pair across segments", () => {
    // 152 units then "€": 154 units would fit 153+1, but the ESC pair cannot straddle, so 152 | 2.
    expect(smsSegments(gsm(152) + "€" + gsm(10)).segments).toBe(2);
    expect(smsSegments(gsm(152) + "€" + gsm(151)).segments).toBe(2);
    expect(smsSegments(gsm(152) + "€" + gsm(152)).segments).toBe(3);
  });

  it("does not split a surrogate pair across segments", () => {
    // 66 units then an emoji: the pair moves to segment 2 (66 | 2 + 65 = 67).
    expect(smsSegments(ucs(66) + "😀" + ucs(65)).segments).toBe(2);
    expect(smsSegments(ucs(66) + "😀" + ucs(66)).segments).toBe(3);
  });

  it("segment count is consistent with units (property)", () => {
    const alphabet = fc.constantFrom("a", "Z", " ", "€", "{", "ж", "😀", "\n");
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 500 }), (chars) => {
        const r = smsSegments(chars.join(""));
        const single = r.encoding === "GSM-7" ? 160 : 70;
        const multi = r.encoding === "GSM-7" ? 153 : 67;
        if (r.units === 0) {
          expect(r.segments).toBe(0);
        } else if (r.units <= single) {
          expect(r.segments).toBe(1);
        } else {
          // Greedy packing wastes at most one unit per segment boundary.
          expect(r.segments).toBeGreaterThanOrEqual(Math.ceil(r.units / multi));
          expect(r.segments).toBeLessThanOrEqual(Math.ceil(r.units / (multi - 1)));
          expect(r.perSegment).toBe(multi);
        }
      }),
    );
  });
});
