/** SPEC §9: part / sent as a percentage with one decimal; 0 sent (or anything not finite) → "0.0%", never NaN/Infinity. */
export function rate(part: number, sent: number): string {
  if (!Number.isFinite(part) || !Number.isFinite(sent) || sent <= 0) return "0.0%";
  const pct = (part / sent) * 100;
  return `${(Math.round(pct * 10) / 10).toFixed(1)}%`;
}

export const RANGES = [7, 30, 90] as const;
export type Range = (typeof RANGES)[number];
export function parseRange(raw: string | null): Range {
  const n = Number(raw);
  return (RANGES as readonly number[]).includes(n) ? (n as Range) : 30;
}

/** The UTC days ending today, oldest first, as YYYY-MM-DD. */
export function dayKeys(now: Date, days: number): string[] {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(end - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}
