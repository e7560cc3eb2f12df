import { between, count, desc, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { complianceEvents, type ComplianceEventKind } from "~/db/schema";

export const MAX_REPORT_DAYS = 366;

export type ComplianceReport = {
  from: string;
  to: string;
  totals: Record<ComplianceEventKind, number>;
  /** Per UTC day, each kind's count (days without events are left out). */
  days: { day: string; optOut: number; optIn: number; refused: number; quietHours: number; held: number }[];
  /** Why: opt-outs and opt-ins by source and channel; refused and held sends by reason. */
  reasons: { kind: ComplianceEventKind; channel: string; why: string; count: number }[];
};

/**
 * The compliance report for the UTC days `from`…`to` (inclusive): read from compliance_events through its
 * (day, kind) index — the events of those days, never the message table.
 */
export async function getComplianceReport(db: Db, range: { from: string; to: string }): Promise<ComplianceReport> {
  const e = complianceEvents;
  const inRange = between(e.day, range.from, range.to);
  const byDay = await db
    .select({ day: e.day, kind: e.kind, n: count() })
    .from(e)
    .where(inRange)
    .groupBy(e.day, e.kind)
    .orderBy(e.day);
  const why = sql<string>`coalesce(${e.source}, 'Unknown')`; // never null: the coalesce
  const n = count();
  const reasons = await db
    .select({ kind: e.kind, channel: e.channel, why, count: n })
    .from(e)
    .where(inRange)
    .groupBy(e.kind, e.channel, why)
    .orderBy(desc(n))
    .limit(50);
  const totals: Record<ComplianceEventKind, number> = { opt_out: 0, opt_in: 0, refused: 0, quiet_hours: 0, held: 0 };
  const days = new Map<string, ComplianceReport["days"][number]>();
  const field = {
    opt_out: "optOut",
    opt_in: "optIn",
    refused: "refused",
    quiet_hours: "quietHours",
    held: "held",
  } as const;
  for (const r of byDay) {
    totals[r.kind] += r.n;
    const d = days.get(r.day) ?? { day: r.day, optOut: 0, optIn: 0, refused: 0, quietHours: 0, held: 0 };
    d[field[r.kind]] += r.n;
    days.set(r.day, d);
  }
  return { from: range.from, to: range.to, totals, days: [...days.values()], reasons };
}
