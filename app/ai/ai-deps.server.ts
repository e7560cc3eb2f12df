import type { AppLoadContext } from "@remix-run/cloudflare";
import { capLimitsLoader } from "~/caps/load-cap-limits.server";
import { consumeAiQuota } from "./consume-ai-quota.server";
import { orgAiBudget } from "./org-ai-budget.server";
import { aiProvidersFor } from "./registry.server";
import { recordingLog, type AiDeps } from "./run-chain.server";

/**
 * The provider chain for this request's configuration; a provider's failure is recorded for the health card, and
 * each model call counts against the organisation's daily budget.
 */
export function aiDeps(context: AppLoadContext): AiDeps {
  return {
    providers: aiProvidersFor(context.cloudflare.env),
    log: recordingLog(context.db, context.clock),
    budget: orgAiBudget(context.db, context.clock, capLimitsLoader(context.db)),
  };
}

/** One AI call on a user's behalf: their per-minute quota is charged first (429 past it), then `run` gets the chain. */
export async function chargedAiCall<T>(context: AppLoadContext, userId: number, run: (deps: AiDeps) => Promise<T>): Promise<T> {
  await consumeAiQuota(context.db, userId, context.clock());
  return run(aiDeps(context));
}
