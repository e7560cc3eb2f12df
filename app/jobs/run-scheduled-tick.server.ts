import type { Db } from "~/db/client.server";
import { purgeExpiredSessions } from "~/auth/session.server";

export type TickDeps = { db: Db; env: Env; now: Date };

/** Everything the per-minute Cron Trigger does. Each task is independent: one failing does not stop the rest. */
export async function runScheduledTick(deps: TickDeps, tasks: Array<(d: TickDeps) => Promise<unknown>> = defaultTasks) {
  const results = await Promise.allSettled(tasks.map((t) => t(deps)));
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
  for (const f of failed) console.error("scheduled task failed", f.reason);
  return { ran: tasks.length, failed: failed.length };
}

export const defaultTasks: Array<(d: TickDeps) => Promise<unknown>> = [({ db, now }) => purgeExpiredSessions(db, now)];
