// The price of one SMS segment (issue 29, decision 066): shared by the Organisation form (client and server) and the
// pre-send estimate, so it lives outside the .server modules.

/**
 * What one SMS segment costs the organisation, in millionths of a dollar, for the pre-send estimate (issue 29): the
 * provider's per-segment price plus the carriers' pass-through fees. The default is Twilio's US list price ($0.0083)
 * plus a typical registered-10DLC carrier fee ($0.003); a superuser sets their own under Organisation.
 */
export const SMS_PRICE_KEY = "smsSegmentPrice";
export const DEFAULT_SMS_SEGMENT_PRICE = "0.0113";
export const MAX_SMS_SEGMENT_PRICE = 1;
const PRICE_RE = /^(?:0|[1-9]\d*)?(?:\.\d{1,6})?$/;

/** "0.0113" → 11300 (micro-dollars), or null for anything that is not a price from 0 to $1 with at most 6 decimals. */
export function priceMicros(value: string): number | null {
  const v = value.trim();
  if (!v || v === "." || !PRICE_RE.test(v)) return null;
  const [whole = "0", frac = ""] = v.split(".");
  const micros = Number(whole || "0") * 1_000_000 + Number(frac.padEnd(6, "0"));
  return micros <= MAX_SMS_SEGMENT_PRICE * 1_000_000 ? micros : null;
}
