import { describe, expect, it } from "vitest";
import { DERIVABLE_TIME_ZONES, deriveTimeZone, KNOWN_AREA_CODES, normalizeState } from "./us-geo";

describe("normalizeState", () => {
  it.each([
    ["CA", "CA"],
    ["ca", "CA"],
    [" tx ", "TX"],
    ["California", "CA"],
    ["new york", "NY"],
    ["NEW   YORK", "NY"],
    ["New-Hampshire", "NH"],
    ["north carolina", "NC"],
    ["DC", "DC"],
    ["D.C.", "DC"],
    ["District of Columbia", "DC"],
    ["Washington, D.C.", "DC"],
    ["Washington", "WA"],
    ["PR", "PR"],
    ["Puerto Rico", "PR"],
    ["puerto rico", "PR"],
    ["Guam", "GU"],
  ])("%j → %s", (input, code) => {
    expect(normalizeState(input)).toBe(code);
  });

  it.each([null, undefined, "", "   ", "ZZ", "Ontario", "Texass", "C A L"])("%j → null", (input) => {
    expect(normalizeState(input)).toBeNull();
  });
});

describe("deriveTimeZone", () => {
  it.each([
    [{ state: "NY" }, "America/New_York"],
    [{ state: "california" }, "America/Los_Angeles"],
    [{ state: "UT" }, "America/Denver"],
    [{ state: "Utah", phone: "+12125554567" }, "America/Denver"], // a wholly-one-zone state wins
    [{ state: "HI" }, "Pacific/Honolulu"],
    [{ state: "PR" }, "America/Puerto_Rico"],
    [{ state: "DC" }, "America/New_York"],
    [{ state: "CO" }, "America/Denver"],
  ])("state %j → %s", (input, zone) => {
    expect(deriveTimeZone(input)).toBe(zone);
  });

  it("resolves a split state by ZIP prefix", () => {
    expect(deriveTimeZone({ state: "FL", zipCode: "32501" })).toBe("America/Chicago"); // Pensacola
    expect(deriveTimeZone({ state: "FL", zipCode: "33101" })).toBe("America/New_York"); // Miami
    expect(deriveTimeZone({ state: "TN", zipCode: "37203" })).toBe("America/Chicago"); // Nashville
    expect(deriveTimeZone({ state: "TN", zipCode: "37902" })).toBe("America/New_York"); // Knoxville
    expect(deriveTimeZone({ state: "TX", zipCode: "79901" })).toBe("America/Denver"); // El Paso
    expect(deriveTimeZone({ state: "IN", zipCode: "46204" })).toBe("America/Indiana/Indianapolis");
    expect(deriveTimeZone({ state: "IN", zipCode: "46402" })).toBe("America/Chicago"); // Gary
    expect(deriveTimeZone({ state: "ID", zipCode: "83814" })).toBe("America/Los_Angeles"); // Coeur d'Alene
    expect(deriveTimeZone({ state: "ID", zipCode: "83702" })).toBe("America/Boise");
    expect(deriveTimeZone({ state: "OR", zipCode: "97914" })).toBe("America/Boise"); // Ontario
    expect(deriveTimeZone({ state: "MI", zipCode: "48226" })).toBe("America/Detroit");
  });

  it("splits Arizona: the Navajo Nation keeps daylight saving time (Denver), the rest of the state does not", () => {
    // Window Rock, Chinle, Kayenta, Tuba City — with a 928 number, which covers both clocks.
    for (const zipCode of ["86515", "86503", "86033", "86045"]) {
      expect(deriveTimeZone({ state: "AZ", zipCode, phone: "+19285550123" }), zipCode).toBe("America/Denver");
      expect(deriveTimeZone({ zipCode }), zipCode).toBe("America/Denver");
    }
    expect(deriveTimeZone({ state: "AZ", zipCode: "85004" })).toBe("America/Phoenix"); // Phoenix
    expect(deriveTimeZone({ state: "AZ", zipCode: "86001" })).toBe("America/Phoenix"); // Flagstaff
    expect(deriveTimeZone({ state: "AZ", zipCode: "86039" })).toBe("America/Phoenix"); // Kykotsmovi (Hopi)
    expect(deriveTimeZone({ state: "AZ", zipCode: "86512" })).toBe("America/Phoenix"); // Sanders, off the reservation
    // Page shares its ZIP with LeChee; 928 spans both clocks; nothing else: no zone, so the strictest window.
    expect(deriveTimeZone({ state: "AZ", zipCode: "86040", phone: "+19285550123" })).toBeNull();
    expect(deriveTimeZone({ state: "AZ", phone: "+19285550123" })).toBeNull();
    expect(deriveTimeZone({ state: "AZ" })).toBeNull();
    expect(deriveTimeZone({ state: "AZ", phone: "+16025550123" })).toBe("America/Phoenix"); // Phoenix metro
  });

  it("applies single-ZIP exceptions inside a prefix", () => {
    expect(deriveTimeZone({ state: "FL", zipCode: "32456" })).toBe("America/New_York"); // Port St. Joe
    expect(deriveTimeZone({ state: "FL", zipCode: "32401" })).toBe("America/Chicago"); // Panama City
    expect(deriveTimeZone({ state: "NV", zipCode: "89883" })).toBe("America/Denver"); // West Wendover
    expect(deriveTimeZone({ state: "AK", zipCode: "99546" })).toBe("America/Adak");
    expect(deriveTimeZone({ state: "AK", zipCode: "99501" })).toBe("America/Anchorage");
  });

  it("accepts ZIP+4 and a ZIP that lost its leading zero", () => {
    expect(deriveTimeZone({ zipCode: "32501-1234" })).toBe("America/Chicago");
    expect(deriveTimeZone({ zipCode: "2134" })).toBe("America/New_York"); // 02134, Boston
  });

  it("falls back to the area code for a split state without a usable ZIP", () => {
    expect(deriveTimeZone({ state: "FL", phone: "+13055551234" })).toBe("America/New_York"); // Miami
    expect(deriveTimeZone({ state: "FL", phone: "+18505551234" })).toBeNull(); // 850 spans Eastern and Central
    expect(deriveTimeZone({ state: "TN", phone: "(901) 555-1234" })).toBe("America/Chicago"); // Memphis
    expect(deriveTimeZone({ state: "TX", zipCode: "798", phone: "+19155551234" })).toBe("America/Denver");
    expect(deriveTimeZone({ state: "KY", zipCode: "42602", phone: "+12705551234" })).toBeNull(); // split ZIP, 270 spans both zones
  });

  it("ignores a ZIP or area code that names none of the state's zones", () => {
    // Moved to Florida with a Los Angeles number: the area code says nothing about where in Florida.
    expect(deriveTimeZone({ state: "FL", phone: "+13105552368" })).toBeNull();
    expect(deriveTimeZone({ state: "FL", zipCode: "90210", phone: "+13055551234" })).toBe("America/New_York");
  });

  it("uses ZIP, then area code, when the state is missing or unknown", () => {
    expect(deriveTimeZone({ zipCode: "94103" })).toBe("America/Los_Angeles");
    expect(deriveTimeZone({ state: "Ontario", zipCode: "10001" })).toBe("America/New_York");
    expect(deriveTimeZone({ zipCode: "10001", phone: "+13105552368" })).toBe("America/New_York"); // ZIP first
    expect(deriveTimeZone({ phone: "+13105552368" })).toBe("America/Los_Angeles");
    expect(deriveTimeZone({ phone: "3125551234" })).toBe("America/Chicago");
    expect(deriveTimeZone({ phone: "+16025551234" })).toBe("America/Phoenix");
    expect(deriveTimeZone({ phone: "+19075551234" })).toBe("America/Anchorage");
    expect(deriveTimeZone({ phone: "+18085551234" })).toBe("Pacific/Honolulu");
    expect(deriveTimeZone({ phone: "+17875551234" })).toBe("America/Puerto_Rico");
  });

  it("returns null when nothing is known", () => {
    expect(deriveTimeZone({})).toBeNull();
    expect(deriveTimeZone({ state: null, zipCode: null, phone: null })).toBeNull();
    expect(deriveTimeZone({ state: "XX", zipCode: "abc", phone: "12345" })).toBeNull();
    expect(deriveTimeZone({ phone: "+442079460958" })).toBeNull();
    expect(deriveTimeZone({ phone: "+18005551234" })).toBeNull(); // toll-free: no place
    expect(deriveTimeZone({ state: "TX" })).toBeNull(); // split state, nothing else
  });

  it("only returns zones the runtime's Intl accepts", () => {
    // ICU may report a CLDR alias (America/Indiana/Indianapolis → America/Indianapolis), so only validity is checked.
    for (const zone of DERIVABLE_TIME_ZONES) {
      expect(() => new Intl.DateTimeFormat("en-US", { timeZone: zone }), zone).not.toThrow();
    }
    expect(DERIVABLE_TIME_ZONES).toEqual(expect.arrayContaining(["America/Indiana/Indianapolis", "America/Boise"]));
  });

  it("knows an area code for every state and DC", () => {
    const sample: Record<string, string> = {
      AL: "205",
      AK: "907",
      AZ: "602",
      AR: "501",
      CA: "213",
      CO: "303",
      CT: "203",
      DE: "302",
      DC: "202",
      FL: "305",
      GA: "404",
      HI: "808",
      ID: "208",
      IL: "312",
      IN: "317",
      IA: "515",
      KS: "316",
      KY: "502",
      LA: "504",
      ME: "207",
      MD: "410",
      MA: "617",
      MI: "313",
      MN: "612",
      MS: "601",
      MO: "314",
      MT: "406",
      NE: "402",
      NV: "702",
      NH: "603",
      NJ: "201",
      NM: "505",
      NY: "212",
      NC: "704",
      ND: "701",
      OH: "614",
      OK: "405",
      OR: "503",
      PA: "215",
      RI: "401",
      SC: "803",
      SD: "605",
      TN: "615",
      TX: "214",
      UT: "801",
      VT: "802",
      VA: "703",
      WA: "206",
      WV: "304",
      WI: "414",
      WY: "307",
    };
    expect(Object.keys(sample)).toHaveLength(51);
    // Every area code of these states crosses a zone line, so by number alone they name no zone (strictest window).
    const straddling = new Set(["ID", "ND", "SD"]);
    for (const [state, code] of Object.entries(sample)) {
      if (straddling.has(state)) {
        expect(deriveTimeZone({ phone: `+1${code}5552368` }), state).toBeNull();
        continue;
      }
      expect(KNOWN_AREA_CODES, state).toContain(code);
      const zone = deriveTimeZone({ phone: `+1${code}5551234` });
      expect(zone, state).not.toBeNull();
    }
    expect(KNOWN_AREA_CODES.length).toBeGreaterThan(300);
    expect(KNOWN_AREA_CODES).not.toContain("800");
  });
});
