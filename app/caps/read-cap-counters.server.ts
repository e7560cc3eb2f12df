import type { Db } from "~/db/client.server";
import { HELD, type HeldKind } from "./caps";
import { readCapUse } from "./hit-cap.server";
import { loadCapLimits } from "./load-cap-limits.server";
import { readHeldToday } from "./record-held.server";

const KINDS = Object.values(HELD) as HeldKind[];

/**
 * What the screens show of the caps (decision 021): the limits, today's held tallies, the organisation's AI budget
 * used today and — for a signed-in user — their test sends and test alerts left this hour. A few primary-key reads.
 */
export async function readCapCounters(db: Db, now: Date, userId: number | null = null) {
  const [limits, held] = await Promise.all([loadCapLimits(db), readHeldToday(db, KINDS, now)]);
  const [aiBudget, testSends, testAlerts] = await Promise.all([
    readCapUse(db, "aiDailyBudget", "org", limits, now),
    userId === null ? null : readCapUse(db, "testSendPerUser", String(userId), limits, now),
    userId === null ? null : readCapUse(db, "testAlertPerUser", String(userId), limits, now),
  ]);
  return { limits, held, aiBudget, testSends, testAlerts };
}

export type CapCounters = Awaited<ReturnType<typeof readCapCounters>>;
