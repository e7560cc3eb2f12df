import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "./http-errors.server";

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-03-01T12:00:00Z");
  it("reads delta-seconds and HTTP-dates", () => {
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Sun, 01 Mar 2026 12:00:30 GMT", now)).toBe(30);
    expect(parseRetryAfter("Sun, 01 Mar 2026 11:00:00 GMT", now)).toBe(0);
  });
  it("ignores missing or malformed values", () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter("", now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter("-5", now)).toBeNull();
  });
});
