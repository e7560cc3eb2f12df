import { HELD, type CapLimits } from "~/caps/caps";
import { hitNamedCap } from "~/caps/hit-cap.server";
import { recordHeld } from "~/caps/record-held.server";
import type { Db } from "~/db/client.server";
import type { Clock } from "~/lib/clock";
import type { AiBudget } from "./run-chain.server";

/**
 * The organisation's daily AI budget (issue 23): every model call, from any user, the inbound path or a test alert,
 * counts one on the organisation's counter for the UTC day; past the limit the chain answers offline (the
 * composer and the keyword classifier) and the held call is tallied for the screens.
 */
export function orgAiBudget(db: Db, clock: Clock, limits: () => Promise<CapLimits>): AiBudget {
  return async (kind) => {
    const at = clock();
    const check = await hitNamedCap(db, "aiDailyBudget", "org", await limits(), at);
    if (!check.allowed) await recordHeld(db, HELD.aiBudget, "org", at, { task: kind, limit: check.limit });
    return check.allowed;
  };
}
