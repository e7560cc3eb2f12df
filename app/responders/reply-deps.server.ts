import { classifyReply } from "~/ai/classify-reply.server";
import { draftReply } from "~/ai/draft-reply.server";
import { orgAiBudget } from "~/ai/org-ai-budget.server";
import { recordingLog } from "~/ai/run-chain.server";
import { aiProvidersFor, type AiEnv } from "~/ai/registry.server";
import { HELD, type CapLimits } from "~/caps/caps";
import { hitNamedCap } from "~/caps/hit-cap.server";
import { capLimitsLoader } from "~/caps/load-cap-limits.server";
import { recordHeld } from "~/caps/record-held.server";
import type { Db } from "~/db/client.server";
import type { JobQueue } from "~/lib/job-queue";
import { loadOrgSettings } from "~/messaging/org-settings.server";
import { alertConfig, type Classify, type ReplyDeps } from "./reply-deps";
import { jobQueue } from "~/jobs/job-queue.server";

/**
 * The AI classifier (app/ai) as the reply processors call it: one recorded classification per message. A number's
 * texts get at most `aiClassifyPerNumber` model classifications an hour, and every model call counts against the
 * organisation's daily budget; past either, the keyword classifier answers (issue 23).
 */
export function classifierFor(env: AiEnv, db: Db, now: () => Date = () => new Date(), limits: () => Promise<CapLimits> = capLimitsLoader(db)): Classify {
  const providers = aiProvidersFor(env);
  const offline = providers.filter((p) => p.name === "offline");
  const hasModel = offline.length < providers.length;
  const deps = { db, now, log: recordingLog(db, now), budget: orgAiBudget(db, now, limits) };
  const classify: Classify = async (text, messageId, phone) => {
    let chain = providers;
    if (hasModel && phone) {
      const check = await hitNamedCap(db, "aiClassifyPerNumber", phone, await limits(), now());
      if (!check.allowed) {
        chain = offline;
        await recordHeld(db, HELD.aiClassify, phone, now(), { messageId, limit: check.limit });
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
export function replyDepsFor(env: Env, db: Db, queue: JobQueue = jobQueue(env)): Omit<ReplyDeps, "db" | "now"> {
  const providers = aiProvidersFor(env as AiEnv);
  const now = () => new Date();
  const capLimits = capLimitsLoader(db);
  let org: Promise<string[]> | null = null;
  const orgDetails = () => (org ??= loadOrgSettings(db).then((s) => Object.values(s)));
  return {
    queue,
    config: alertConfig(env),
    classify: classifierFor(env as AiEnv, db, now, capLimits),
    draft: async (input) => {
      const r = await draftReply({ providers, log: recordingLog(db, now), budget: orgAiBudget(db, now, capLimits) }, input, await orgDetails());
      return { text: r.text, refused: r.refused };
    },
    capLimits,
  };
}
