// Phone handling for contacts. Pure functions: no I/O, safe to use in loaders, actions and the browser.

/**
 * SPEC §5 phone normalisation: strip all non-digits; 10 digits → "+1" + digits; 11 digits starting with 1 →
 * "+" + digits; anything else is returned unchanged (trimmed). US country code is assumed.
 *
 * Idempotent: an output of the first two branches has 11 digits starting with 1, so it maps to itself; the
 * fall-through branch keeps the digit count, so it falls through again.
 */
export function normalizePhone(input: string): string {
  const trimmed = input.trim();
  const digits = trimmed.replace(/\D/g, "");
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith("1")) return `+${digits}`;
  return trimmed;
}

export type PhoneAssessment = { sendable: true } | { sendable: false; reason: string };

// Toll-free numbers need separate verification and 900 numbers are premium-rate; neither takes marketing texts.
const TOLL_FREE_AREA_CODES = new Set(["800", "833", "844", "855", "866", "877", "888"]);
const PREMIUM_AREA_CODES = new Set(["900"]);

const codeSet = (list: string) => new Set(list.split(" ").filter(Boolean));

/**
 * Geographic area codes in service (NANPA) for landlines and mobiles, as of 2026. Anything else with a valid
 * shape is unassigned, a non-geographic code (5XX personal numbers, 600, 700, 710…) or another country's.
 * Checked against libphonenumber-js and us-geo's zone table by app/contacts/nanp-data.check.test.ts.
 */
export const US_AREA_CODES: ReadonlySet<string> = codeSet(
  "201 202 203 205 206 207 208 209 210 212 213 214 215 216 217 218 219 220 223 224 225 227 228 229 231 234 " +
    "235 239 240 248 251 252 253 254 256 260 262 267 269 270 272 274 276 279 281 283 301 302 303 304 305 307 " +
    "308 309 310 312 313 314 315 316 317 318 319 320 321 323 324 325 326 327 329 330 331 332 334 336 337 339 " +
    "341 346 347 350 351 352 353 360 361 363 364 369 380 385 386 401 402 404 405 406 407 408 409 410 412 413 " +
    "414 415 417 419 423 424 425 430 432 434 435 436 440 442 443 445 447 448 457 458 463 464 469 470 472 475 " +
    "478 479 480 484 501 502 503 504 505 507 508 509 510 512 513 515 516 517 518 520 530 531 534 539 540 541 " +
    "551 557 559 561 562 563 564 567 570 571 572 573 574 575 580 582 585 586 601 602 603 605 606 607 608 609 " +
    "610 612 614 615 616 617 618 619 620 623 624 626 628 629 630 631 636 640 641 645 646 650 651 656 657 659 " +
    "660 661 662 667 669 678 679 680 681 682 686 689 701 702 703 704 706 707 708 712 713 714 715 716 717 718 " +
    "719 720 724 725 726 727 728 730 731 732 734 737 738 740 743 747 748 754 757 760 762 763 765 769 770 771 " +
    "772 773 774 775 779 781 785 786 801 802 803 804 805 806 808 810 812 813 814 815 816 817 818 820 821 826 " +
    "828 830 831 832 835 837 838 839 840 843 845 847 848 850 854 856 857 858 859 860 861 862 863 864 865 870 " +
    "872 878 901 903 904 906 907 908 909 910 912 913 914 915 916 917 918 919 920 924 925 928 929 930 931 934 " +
    "936 937 938 940 941 943 945 947 948 949 951 952 954 956 959 970 971 972 973 975 978 979 980 983 984 985 " +
    "986 989",
);
/** Puerto Rico, U.S. Virgin Islands, Northern Mariana Islands, Guam, American Samoa: US numbers, as before. */
export const US_TERRITORY_AREA_CODES: ReadonlySet<string> = codeSet("340 670 671 684 787 939");
/** Canada shares +1 and has always been accepted like a US number; its texts go through the same provider. */
export const CANADA_AREA_CODES: ReadonlySet<string> = codeSet(
  "204 226 236 249 250 257 263 273 289 306 343 354 365 367 368 382 403 416 418 428 431 437 438 450 468 474 " +
    "506 514 519 548 579 581 584 587 604 613 639 647 672 683 705 709 742 753 778 780 782 807 819 825 867 873 " +
    "879 902 905 942",
);
/** The Caribbean countries and Bermuda in the +1 plan: international destinations, not US numbers. */
export const OTHER_COUNTRY_AREA_CODES: ReadonlySet<string> = codeSet(
  "242 246 264 268 284 345 441 473 649 658 664 721 758 767 784 809 829 849 868 869 876",
);

/** Reasons are shown as-is in the UI, so they are short English sentences. */
export const PHONE_REASONS = {
  notUs: "Not a US phone number (expected 10 digits)",
  international: "Not a US phone number (only +1 numbers are supported)",
  areaCode: "Invalid area code",
  unassigned: "Invalid area code (no US or Canadian mobile or landline number uses it)",
  otherCountry: "Not a US phone number (this +1 area code belongs to another country, e.g. in the Caribbean)",
  exchange: "Invalid phone number (the 3 digits after the area code cannot start with 0 or 1)",
  serviceCode: "Invalid phone number (the 3 digits after the area code cannot be a service code like 911)",
  fictional: "Fictional number (555-0100 to 555-0199 is reserved for films and examples)",
  tollFree: "Toll-free and premium numbers cannot receive marketing texts",
  // From the carrier lookup (decision 069); migration 0074's trigger writes the same words.
  landline: "Landline: it cannot receive texts (carrier lookup)",
} as const;

/**
 * Is an already-normalised phone a plausible US (NANP) mobile or landline number? Checks the shape (NANP
 * numbering rules) and that the area code is in service in the US, its territories or Canada; it cannot tell
 * whether the number itself is.
 */
export function assessPhone(normalized: string): PhoneAssessment {
  const value = normalized.trim();
  const match = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(value);
  if (!match) {
    // "+44…" is a well-formed foreign number: say so rather than blaming the digit count.
    if (/^\+(?!1)\d/.test(value)) return { sendable: false, reason: PHONE_REASONS.international };
    return { sendable: false, reason: PHONE_REASONS.notUs };
  }
  const [, area, exchange, line] = match;

  // NANP: area codes are NXX (N = 2–9) and N11 codes are service codes (211, 411, 911…), never area codes.
  if (!/^[2-9]/.test(area) || area.endsWith("11")) return { sendable: false, reason: PHONE_REASONS.areaCode };
  if (TOLL_FREE_AREA_CODES.has(area) || PREMIUM_AREA_CODES.has(area)) {
    return { sendable: false, reason: PHONE_REASONS.tollFree };
  }
  if (OTHER_COUNTRY_AREA_CODES.has(area)) return { sendable: false, reason: PHONE_REASONS.otherCountry };
  if (!US_AREA_CODES.has(area) && !US_TERRITORY_AREA_CODES.has(area) && !CANADA_AREA_CODES.has(area)) {
    return { sendable: false, reason: PHONE_REASONS.unassigned };
  }
  // Exchanges are also NXX, and N11 exchanges are not assigned to subscribers.
  if (!/^[2-9]/.test(exchange)) return { sendable: false, reason: PHONE_REASONS.exchange };
  if (exchange.endsWith("11")) return { sendable: false, reason: PHONE_REASONS.serviceCode };
  // 555-01XX is the only range reserved for fictional use in every area code.
  if (exchange === "555" && line.startsWith("01")) return { sendable: false, reason: PHONE_REASONS.fictional };

  return { sendable: true };
}
