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

/** Reasons are shown as-is in the UI, so they are short English sentences. */
export const PHONE_REASONS = {
  notUs: "Not a US phone number (expected 10 digits)",
  international: "Not a US phone number (only +1 numbers are supported)",
  areaCode: "Invalid area code",
  exchange: "Invalid phone number (the 3 digits after the area code cannot start with 0 or 1)",
  serviceCode: "Invalid phone number (the 3 digits after the area code cannot be a service code like 911)",
  fictional: "Fictional number (555-0100 to 555-0199 is reserved for films and examples)",
  tollFree: "Toll-free and premium numbers cannot receive marketing texts",
} as const;

/**
 * Is an already-normalised phone a plausible US (NANP) mobile or landline number? Checks the shape only
 * (NANP numbering rules); it cannot tell whether the number is in service.
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
  // Exchanges are also NXX, and N11 exchanges are not assigned to subscribers.
  if (!/^[2-9]/.test(exchange)) return { sendable: false, reason: PHONE_REASONS.exchange };
  if (exchange.endsWith("11")) return { sendable: false, reason: PHONE_REASONS.serviceCode };
  // 555-01XX is the only range reserved for fictional use in every area code.
  if (exchange === "555" && line.startsWith("01")) return { sendable: false, reason: PHONE_REASONS.fictional };

  return { sendable: true };
}
