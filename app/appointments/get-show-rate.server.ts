import { and, count, eq, gte, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { appointments, type AppointmentStatus } from "~/db/schema";

export type ShowRate = {
  /** Appointments of this closer that started in the period, by what became of them. */
  byStatus: Partial<Record<AppointmentStatus, number>>;
  /** Sat ÷ (sat + no-show), or null before any appointment was sat or missed. */
  showRate: number | null;
};

/**
 * A closer's show rate over a period (issue 28 item 2, decision 058): their appointments that started in it, counted
 * by status through `appointments_closer_idx (closer_user_id, starts_at)` — the closer's rows in the range only.
 */
export async function getShowRate(db: Db, closerUserId: number, period: { from: Date; to: Date }): Promise<ShowRate> {
  const rows = await db
    .select({ status: appointments.status, n: count() })
    .from(appointments)
    .where(
      and(
        eq(appointments.closerUserId, closerUserId),
        gte(appointments.startsAt, period.from),
        lt(appointments.startsAt, period.to),
      ),
    )
    .groupBy(appointments.status);
  const byStatus = Object.fromEntries(rows.map((r) => [r.status, r.n])) as ShowRate["byStatus"];
  const sat = byStatus.completed ?? 0;
  const missed = byStatus.no_show ?? 0;
  return { byStatus, showRate: sat + missed ? sat / (sat + missed) : null };
}
