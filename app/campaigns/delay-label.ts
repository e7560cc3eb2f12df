// Shared by the step editor and the domain (SPEC §9): "Immediate" for zero, else "2d 3h", "5d", "3h".
export function delayLabel(days: number, hours: number): string {
  const d = Math.max(0, Math.trunc(days) || 0);
  const h = Math.max(0, Math.trunc(hours) || 0);
  if (d === 0 && h === 0) return "Immediate";
  return [d ? `${d}d` : "", h ? `${h}h` : ""].filter(Boolean).join(" ");
}

/** A step's delay in milliseconds. */
export const delayMs = (days: number, hours: number) => (days * 86_400 + hours * 3_600) * 1000;
