import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "./app-error";
import { parseId, requireId } from "./ids";

describe("parseId", () => {
  it("accepts plain positive decimal integers", () => {
    expect(parseId("1")).toBe(1);
    expect(parseId("42")).toBe(42);
    expect(parseId(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseId(7)).toBe(7);
  });

  it.each([
    "0",
    "-1",
    "+1",
    "0x6",
    "6e0",
    " 6",
    "6 ",
    "06",
    "1.0",
    "1.5",
    "",
    "abc",
    "9007199254740992",
    "99999999999999999",
    "١٢",
  ])("refuses %j", (raw) => expect(parseId(raw)).toBeNull());

  it("refuses non-strings and unsafe numbers", () => {
    for (const v of [null, undefined, {}, [], 0, -3, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])
      expect(parseId(v)).toBeNull();
  });

  it("round-trips every safe positive integer and nothing else", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (n) => parseId(String(n)) === n));
    fc.assert(
      fc.property(fc.string(), (s) => {
        const id = parseId(s);
        return id === null || String(id) === s;
      }),
    );
  });

  it("requireId throws a not_found AppError", () => {
    expect(() => requireId("0x6")).toThrow(AppError);
    try {
      requireId("6e0");
    } catch (e) {
      expect((e as AppError).code).toBe("not_found");
      expect((e as AppError).status).toBe(404);
    }
  });
});
