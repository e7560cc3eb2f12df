import { capLimitsLoader } from "~/caps/load-cap-limits.server";
import type { Db } from "~/db/client.server";
import type { Clock } from "~/lib/clock";
import { consumeAiQuota } from "./consume-ai-quota.server";
import { orgAiBudget } from "./org-ai-budget.server";
import { aiProvidersFor } from "./registry.server";
import { recordingLog, type AiDeps } from "./run-chain.server";

/** The part of a request's load context the chain needs (a route passes its `context`); no Remix type in the domain. */
type AiContext = { db: Db; clock: Clock; cloudflare: { env: Env } };

/**
 * The provider chain for this request's configuration; a provider's failure is recorded for the health card, and
 * each model call counts against the organisation's daily budget.
 */
export function aiDeps(context: AiContext): AiDeps {
  return {
    providers: aiProvidersFor(context.cloudflare.env),
    log: recordingLog(context.db, context.clock),
    budget: orgAiBudget(context.db, context.clock, capLimitsLoader(context.db)),
  };
}

/** One AI call on a user's behalf: their per-minute quota is charged first (429 past it), then `run` gets the chain. */
export async function chargedAiCall<T>(context: AiContext, userId: number, run: (deps: AiDeps) => Promise<T>): Promise<T> {
  await consumeAiQuota(context.db, userId, context.clock());
  return run(aiDeps(context));
}
