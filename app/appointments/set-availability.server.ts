import { eq } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { closerAvailability } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { zoneFormatter } from "~/lib/zone-clock";

export type WeeklyHours = { weekday: number; startMinute: number; endMinute: number }[];

/** A user's weekly hours (decision 058), replaced as a whole: one window a weekday, in one zone. */
export async function setAvailability(db: Db, userId: number, input: { timeZone: string; days: WeeklyHours }) {
  if (!zoneFormatter(input.timeZone)) throw new AppError("validation", "Choose a time zone", { field: "timeZone" });
  for (const d of input.days)
    if (d.endMinute - d.startMinute < 60)
      throw new AppError("validation", "Each day's hours must span at least an hour", { field: `end${d.weekday}` });
  await runBatch(db, [
    db.delete(closerAvailability).where(eq(closerAvailability.userId, userId)),
    ...input.days.map((d) => db.insert(closerAvailability).values({ userId, ...d, timeZone: input.timeZone })),
  ]);
}

/** A user's weekly hours as the form shows them. */
export async function getAvailability(db: Db, userId: number) {
  return db
    .select()
    .from(closerAvailability)
    .where(eq(closerAvailability.userId, userId))
    .orderBy(closerAvailability.weekday);
}
