import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { alerts } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { ALERT_NOT_FOUND } from "./alert-schema";

/** The first acknowledgement stands: a second one keeps its time and person. */
export const acknowledged = (userId: number, now: Date) => ({
  status: "acknowledged" as const,
  acknowledgedAt: sql`coalesce(${alerts.acknowledgedAt}, ${now.getTime()})`,
  acknowledgedBy: sql`coalesce(${alerts.acknowledgedBy}, ${userId})`,
});

export async function acknowledgeAlert(db: Db, id: number, userId: number, now: Date) {
  const res = await db
    .update(alerts)
    .set(acknowledged(userId, now))
    .where(eq(alerts.id, id))
    .returning({ id: alerts.id });
  if (!res.length) throw new AppError("not_found", ALERT_NOT_FOUND);
}
