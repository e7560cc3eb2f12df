import { asc, eq } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { solarStateData } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { AppError } from "~/lib/app-error";

/**
 * A superuser sets a state's incentive (decision 074: Helio ships none it could not source): the dollars every
 * estimate for a home there subtracts from the system's cost, and the note its basis shows ("SGIP battery rebate,
 * 2026"). 0 clears it. Logged as `set_state_incentive`. The bounds are the route's parse; the state must be a row.
 */
export async function setStateIncentive(
  db: Db,
  input: { state: string; dollars: number; note: string | null },
  actor: Actor,
  now: Date,
) {
  const row = await db
    .select({ state: solarStateData.state })
    .from(solarStateData)
    .where(eq(solarStateData.state, input.state))
    .get();
  if (!row) throw new AppError("validation", "Choose a state", { field: "incentiveState" });
  const note = input.dollars === 0 ? null : input.note;
  await runBatch(db, [
    db
      .update(solarStateData)
      .set({ incentiveDollars: input.dollars, incentiveNote: note })
      .where(eq(solarStateData.state, input.state)),
    logActivity(db, "set_state_incentive", {
      ...actor,
      details: { state: input.state, dollars: input.dollars, note },
      now,
    }),
  ]);
}

/** The states (and "US") the form offers, and those with an incentive set: one read of a 52-row table. */
export async function listStateIncentives(db: Db) {
  const rows = await db
    .select({
      state: solarStateData.state,
      dollars: solarStateData.incentiveDollars,
      note: solarStateData.incentiveNote,
    })
    .from(solarStateData)
    .orderBy(asc(solarStateData.state));
  return { states: rows.map((r) => r.state), set: rows.filter((r) => r.dollars > 0) };
}
