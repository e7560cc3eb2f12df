import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assessPhone, normalizePhone, PHONE_REASONS } from "./phone";

describe("normalizePhone (SPEC §5)", () => {
  it.each([
    ["(555) 234-5678", "+15552345678"],
    ["555-234-5678", "+15552345678"],
    ["555.234.5678", "+15552345678"],
    ["5552345678", "+15552345678"],
    ["1-555-234-5678", "+15552345678"],
    ["1 (555) 234-5678", "+15552345678"],
    ["+1 555 234 5678", "+15552345678"],
    ["+15552345678", "+15552345678"],
    ["  (555) 234-5678  ", "+15552345678"],
    ["+44 20 7946 0958", "+44 20 7946 0958"], // 12 digits: unchanged
    ["12345", "12345"],
    ["25552345678", "25552345678"], // 11 digits not starting with 1: unchanged
    ["  12345 ", "12345"], // unchanged means the trimmed original
    ["", ""],
    ["call me", "call me"],
  ])("%j → %j", (input, expected) => {
    expect(normalizePhone(input)).toBe(expected);
  });

  it("is idempotent on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const once = normalizePhone(s);
        expect(normalizePhone(once)).toBe(once);
      }),
    );
  });

  it("is idempotent on phone-like strings", () => {
    const phoneLike = fc
      .array(fc.constantFrom(..."0123456789 ()-.+x"), { maxLength: 20 })
      .map((chars) => chars.join(""));
    fc.assert(
      fc.property(phoneLike, (s) => {
        const once = normalizePhone(s);
        expect(normalizePhone(once)).toBe(once);
      }),
    );
  });
});

describe("assessPhone", () => {
  it.each(["+12125554567", "+13105552368", "+19175551212", "+12025550200", "+17135554821", "+14155550099"])(
    "%s is sendable",
    (phone) => {
      expect(assessPhone(phone)).toEqual({ sendable: true });
    },
  );

  it.each([
    ["12345", PHONE_REASONS.notUs],
    ["", PHONE_REASONS.notUs],
    ["+1555234567", PHONE_REASONS.notUs], // 9 digits after +1
    ["5552345678", PHONE_REASONS.notUs], // not normalised
    ["+44 20 7946 0958", PHONE_REASONS.international],
    ["+442079460958", PHONE_REASONS.international],
    ["+10125551234", PHONE_REASONS.areaCode],
    ["+11125551234", PHONE_REASONS.areaCode],
    ["+12115551234", PHONE_REASONS.areaCode], // N11
    ["+19115551234", PHONE_REASONS.areaCode],
    ["+12120551234", PHONE_REASONS.exchange],
    ["+12121551234", PHONE_REASONS.exchange],
    ["+12129111234", PHONE_REASONS.serviceCode],
    ["+12125550100", PHONE_REASONS.fictional],
    ["+12125550199", PHONE_REASONS.fictional],
    ["+18005551234", PHONE_REASONS.tollFree],
    ["+18335551234", PHONE_REASONS.tollFree],
    ["+18445551234", PHONE_REASONS.tollFree],
    ["+18555551234", PHONE_REASONS.tollFree],
    ["+18665551234", PHONE_REASONS.tollFree],
    ["+18775551234", PHONE_REASONS.tollFree],
    ["+18885551234", PHONE_REASONS.tollFree],
    ["+19005551234", PHONE_REASONS.tollFree],
  ])("%j is not sendable: %s", (phone, reason) => {
    expect(assessPhone(phone)).toEqual({ sendable: false, reason });
  });

  it.each([
    ["+12995551234", PHONE_REASONS.unassigned], // 299: never assigned
    ["+12215551234", PHONE_REASONS.unassigned],
    ["+13785551234", PHONE_REASONS.unassigned],
    ["+19995551234", PHONE_REASONS.unassigned],
    ["+15005551234", PHONE_REASONS.unassigned], // 5XX: non-geographic personal numbers
    ["+17005551234", PHONE_REASONS.unassigned], // 700: carrier services
    ["+18765551234", PHONE_REASONS.otherCountry], // Jamaica
    ["+18095551234", PHONE_REASONS.otherCountry], // Dominican Republic
    ["+14415551234", PHONE_REASONS.otherCountry], // Bermuda
  ])("%s has an area code no US number uses: %s", (phone, reason) => {
    expect(assessPhone(phone)).toEqual({ sendable: false, reason });
  });

  it.each([
    "+14165552368", // Toronto: Canada is accepted, as it always was
    "+16045552368", // Vancouver
    "+17875552368", // Puerto Rico
    "+16715552368", // Guam
    "+13405552368", // U.S. Virgin Islands
    "+17485552368", // Colorado's newest overlay
    "+16795552368", // Detroit's overlay (2025)
  ])("%s is sendable", (phone) => {
    expect(assessPhone(phone)).toEqual({ sendable: true });
  });

  it("keeps 555 numbers outside 01XX sendable (only 555-0100..0199 is fictional)", () => {
    expect(assessPhone("+12125550200").sendable).toBe(true);
    expect(assessPhone("+12125550099").sendable).toBe(true);
  });

  it("gives a short English reason for every unsendable result", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const result = assessPhone(normalizePhone(s));
        if (!result.sendable) expect(result.reason).toMatch(/^[A-Z][^\n]{5,100}$/);
      }),
    );
  });
});
