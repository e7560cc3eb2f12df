// The home's electricity as people type it (decision 074): the Savings card's form and an import's columns read a
// bill, a monthly use and a utility with these one set of rules. Browser-safe.
import { z } from "zod";
import { formatCount } from "~/lib/format-count";

export const MAX_MONTHLY_BILL_DOLLARS = 5_000;
export const MAX_MONTHLY_KWH = 20_000;
export const MAX_UTILITY_NAME = 100;

export const BILL_FORMAT = `Monthly bill: a dollar amount from 1 to ${formatCount(MAX_MONTHLY_BILL_DOLLARS)}, e.g. 182.50`;
export const KWH_FORMAT = `Monthly use: whole kWh from 1 to ${formatCount(MAX_MONTHLY_KWH)}`;
export const UTILITY_FORMAT = `Utility: at most ${MAX_UTILITY_NAME} characters`;

const blankToNull = (v: string) => (v === "" ? null : v);

/** "$1,182.50" → 118250 cents; "" → null. */
export const monthlyBillField = z
  .string()
  .trim()
  .max(20, BILL_FORMAT)
  .transform((v) => v.replace(/^\$/, "").replaceAll(",", "").trim())
  .refine((v) => v === "" || /^\d+(\.\d{1,2})?$/.test(v), BILL_FORMAT)
  .transform(blankToNull)
  .transform((v) => (v === null ? null : Math.round(Number(v) * 100)))
  .refine((c) => c === null || (c >= 100 && c <= MAX_MONTHLY_BILL_DOLLARS * 100), BILL_FORMAT);

/** "1,250" (or "1,250 kWh") → 1250; "" → null. */
export const monthlyKwhField = z
  .string()
  .trim()
  .max(20, KWH_FORMAT)
  .transform((v) => v.replace(/\s*kwh$/i, "").replaceAll(",", ""))
  .refine((v) => v === "" || /^\d+$/.test(v), KWH_FORMAT)
  .transform((v) => (v === "" ? null : Number(v)))
  .refine((n) => n === null || (n >= 1 && n <= MAX_MONTHLY_KWH), KWH_FORMAT);

export const utilityNameField = z.string().trim().max(MAX_UTILITY_NAME, UTILITY_FORMAT).transform(blankToNull);

export type HomeUsage = { monthlyBillCents: number | null; monthlyKwh: number | null; utilityName: string | null };
