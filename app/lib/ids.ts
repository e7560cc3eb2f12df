import { AppError } from "./app-error";
import { z } from "zod";

const DIGITS = /^[1-9][0-9]{0,15}$/;

/**
 * The one id parser: digits only (no sign, exponent, hex, spaces or leading zeros), 1…MAX_SAFE_INTEGER.
 * Returns null for anything else — `Number()` would accept "0x6", "6e0" and " 6".
 */
export function parseId(raw: unknown): number | null {
  if (typeof raw === "number") return Number.isSafeInteger(raw) && raw > 0 ? raw : null;
  if (typeof raw !== "string" || !DIGITS.test(raw)) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : null;
}

/** Route params: an id that does not parse is a 404 (the resource cannot exist), never a 400 or 500. */
export function requireId(raw: unknown, what = "Not found"): number {
  const id = parseId(raw);
  if (id === null) throw new AppError("not_found", what);
  return id;
}

/** The same rule as a zod field (query strings, JSON bodies): digits or a safe positive integer, else `message`. */
export function zodId(message = "must be a positive integer") {
  return z.union([z.string(), z.number()], { errorMap: () => ({ message }) }).transform((raw, ctx) => {
    const id = parseId(raw);
    if (id === null) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message });
      return z.NEVER;
    }
    return id;
  });
}
