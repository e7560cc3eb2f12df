import { classifyReply } from "~/ai/classify-reply.server";
import { consumeAiQuota } from "~/ai/consume-ai-quota.server";
import { draftReply } from "~/ai/draft-reply.server";
import { orgAiBudget } from "~/ai/org-ai-budget.server";
import { aiProvidersFor, type AiEnv } from "~/ai/registry.server";
import { recordingLog, type AiDeps } from "~/ai/run-chain.server";
import { HELD, type CapLimits } from "~/caps/caps";
import { hitNamedCap } from "~/caps/hit-cap.server";
import { capLimitsLoader } from "~/caps/load-cap-limits.server";
import { recordHeld } from "~/caps/record-held.server";
import type { Db } from "~/db/client.server";
import { systemClock, type Clock } from "~/lib/clock";
import type { JobQueue } from "~/lib/job-queue";
import { loadOrgSettings } from "~/messaging/org-settings.server";
import { alertConfig, type Classify, type ReplyDeps } from "~/responders/reply-deps";

/** The reply processors' providers; the caller adds `db` and the event's `now`. */
export type ReplyProviders = Omit<ReplyDeps, "db" | "now">;

/**
 * The AI provider chain for this configuration (Workers AI → OpenAI-compatible → offline composer, decision 007): a
 * provider's failure is recorded for the health card, and each model call counts against the organisation's daily
 * budget.
 */
export function aiChain(
  env: AiEnv,
  db: Db,
  clock: Clock,
  limits: () => Promise<CapLimits> = capLimitsLoader(db),
): AiDeps {
  return { providers: aiProvidersFor(env), log: recordingLog(db, clock), budget: orgAiBudget(db, clock, limits) };
}

/** One AI call on a user's behalf: their per-minute quota is charged first (429 past it), then `run` gets the chain. */
export async function chargedAiCall<T>(
  context: { db: Db; clock: Clock; ai: () => AiDeps },
  userId: number,
  run: (deps: AiDeps) => Promise<T>,
): Promise<T> {
  await consumeAiQuota(context.db, userId, context.clock());
  return run(context.ai());
}

/**
 * The AI classifier (app/ai) as the reply processors call it: one recorded classification per message. A number's
 * texts get at most `aiClassifyPerNumber` model classifications an hour, and every model call counts against the
 * organisation's daily budget; past either, the keyword classifier answers (issue 23).
 */
export function classifierFor(
  env: AiEnv,
  db: Db,
  clock: Clock = systemClock,
  limits: () => Promise<CapLimits> = capLimitsLoader(db),
): Classify {
  const { providers, log, budget } = aiChain(env, db, clock, limits);
  const offline = providers.filter((p) => p.name === "offline");
  const hasModel = offline.length < providers.length;
  const deps = { db, clock, log, budget };
  const classify: Classify = async (text, messageId, phone) => {
    let chain = providers;
    if (hasModel && phone) {
      const check = await hitNamedCap(db, "aiClassifyPerNumber", phone, await limits(), clock());
      if (!check.allowed) {
        chain = offline;
        await recordHeld(db, HELD.aiClassify, phone, clock(), { messageId, limit: check.limit });
      }
    }
    return classifyReply({ ...deps, providers: chain }, text, { messageId });
  };
  return Object.assign(classify, { hasModel });
}

/**
 * The reply processors' providers from the environment: queue, alert addresses, the AI classifier, the reply
 * drafter `useAI` responders use (app/ai/draft-reply.server.ts; the offline composer closes its chain; its drafts
 * may only carry contact details from the written answer or the organisation's settings), and the cap limits.
 */
export function replyProviders(env: Env, db: Db, queue: JobQueue, clock: Clock = systemClock): ReplyProviders {
  const capLimits = capLimitsLoader(db);
  const ai = aiChain(env as AiEnv, db, clock, capLimits);
  let org: Promise<string[]> | null = null;
  const orgDetails = () => (org ??= loadOrgSettings(db).then((s) => Object.values(s)));
  return {
    queue,
    config: alertConfig(env),
    classify: classifierFor(env as AiEnv, db, clock, capLimits),
    draft: async (input) => {
      const r = await draftReply(ai, input, await orgDetails());
      return { text: r.text, refused: r.refused };
    },
    capLimits,
  };
}
