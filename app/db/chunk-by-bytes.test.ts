import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "~/lib/app-error";
import { chunkByBytes, chunksByBytes, D1_VALUE_BUDGET, jsonBytes, utf8Length } from "./chunk-by-bytes.server";

const encoder = new TextEncoder();
const bytesOf = (s: string) => encoder.encode(s).length;

// Text as people write it: accents, CJK, emoji (astral, two UTF-16 units), control characters JSON escapes, and
// unpaired surrogates JSON.stringify escapes as \udXXX.
const text = fc.oneof(
  fc.string({ maxLength: 400 }),
  fc.string({ unit: "grapheme", maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc
    .array(fc.constantFrom("é", "ü", "—", "☀", "太陽", "🌞", "👩‍👩‍👧", "\n", "\u0001", '"', "\\", "\ud800", "a"), {
      maxLength: 300,
    })
    .map((a) => a.join("")),
);
const row = fc.record({
  id: fc.integer({ min: 1, max: 2 ** 53 - 1 }),
  content: text,
  subject: fc.option(text),
  claim: fc.constantFrom(0, 1),
});
// Rows whose characters are mostly 3–4 bytes: fewer characters than the budget, more bytes than it.
const wide = fc
  .array(fc.constantFrom("☀", "太陽", "🌞", "é", "✓"), { minLength: 50, maxLength: 400 })
  .map((a) => a.join(""));
const rows = fc.oneof(
  fc.array(row, { maxLength: 60 }),
  fc.array(fc.record({ id: fc.nat(), content: wide }), { maxLength: 12 }),
);

describe("chunkByBytes", () => {
  it("utf8Length is the UTF-8 length TextEncoder gives, for any string", () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: "binary" })), (s) => utf8Length(s) === bytesOf(s)),
      { numRuns: 500 },
    );
    expect(utf8Length("a\u00e9\u2600\ud83c\udf1e")).toBe(1 + 2 + 3 + 4);
    expect(utf8Length("\ud800x\udc00")).toBe(3 + 1 + 3); // unpaired halves are U+FFFD each
    const long = "é☀🌞\ud800a".repeat(80_000); // 480,000 units: past the reused buffer, counted by the loop
    expect(utf8Length(long)).toBe(bytesOf(long));
  });

  it("every chunk's JSON is within the budget and is the rows' JSON; rows stay in order, none lost; chunks are full", () => {
    fc.assert(
      fc.property(
        rows,
        fc.integer({ min: 2_000, max: 6_000 }),
        fc.integer({ min: 1, max: 30 }),
        (input, maxBytes, maxRows) => {
          const chunks = chunksByBytes(input, { maxBytes, maxRows });
          expect(chunks.flatMap((c) => c.rows)).toEqual(input);
          chunks.forEach((c, i) => {
            expect(c.rows.length).toBeGreaterThan(0);
            expect(c.rows.length).toBeLessThanOrEqual(maxRows);
            expect(c.json).toBe(JSON.stringify(c.rows));
            expect(bytesOf(c.json)).toBeLessThanOrEqual(maxBytes);
            expect(JSON.parse(c.json)).toEqual(JSON.parse(JSON.stringify(c.rows)));
            // Greedy: the next chunk's first row would not have fitted in this one.
            const next = chunks[i + 1];
            if (next)
              expect(c.rows.length === maxRows || bytesOf(c.json) + 1 + jsonBytes(next.rows[0]) > maxBytes).toBe(true);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a row that can never fit is a payload_too_large AppError, not SQLITE_TOOBIG later", () => {
    const big = { id: 1, content: "☀".repeat(400) }; // 1,200 bytes of text
    expect(chunksByBytes([{ id: 0 }], { maxBytes: 1_000 })).toHaveLength(1);
    let err: unknown;
    try {
      chunksByBytes([{ id: 0 }, big], { maxBytes: 1_000 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("payload_too_large");
  });

  it("measures bytes, not characters: 5,000 three-byte characters a row fill a megabyte at 66 rows, ASCII at 199", () => {
    const rows = (ch: string) => Array.from({ length: 500 }, (_, id) => ({ id, content: ch.repeat(5000) }));
    const wide = chunksByBytes(rows("☀"));
    const ascii = chunksByBytes(rows("a"));
    expect(wide.map((c) => c.rows.length).slice(0, 2)).toEqual([66, 66]);
    expect(ascii.map((c) => c.rows.length).slice(0, 2)).toEqual([199, 199]);
    for (const c of [...wide, ...ascii]) expect(bytesOf(c.json)).toBeLessThanOrEqual(D1_VALUE_BUDGET);
    expect(chunksByBytes([])).toEqual([]);
    expect(chunksByBytes([undefined, 1])).toEqual([{ rows: [undefined, 1], json: "[null,1]" }]);
    expect(chunksByBytes([undefined, 1], { maxRows: 1 })).toEqual([
      { rows: [undefined], json: "[null]" },
      { rows: [1], json: "[1]" },
    ]);
  });

  it("is lazy: each chunk is made only when asked for", () => {
    const rows = Array.from({ length: 10 }, (_, id) => ({ id }));
    const seen: number[] = [];
    const proxy = new Proxy(rows, {
      get: (t, p) => (typeof p === "string" && /^\d+$/.test(p) && seen.push(Number(p)), Reflect.get(t, p)),
    });
    const lazy = chunkByBytes(proxy, { maxRows: 3 });
    expect(lazy.next().value?.rows).toEqual(rows.slice(0, 3));
    expect(Math.max(...seen)).toBe(3); // read one row past the chunk to know it was full
  });
});
