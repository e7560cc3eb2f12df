import { classifyReply } from "~/ai/classify-reply.server";
import { draftReply } from "~/ai/draft-reply.server";
import { recordingLog } from "~/ai/run-chain.server";
import { aiProvidersFor, type AiEnv } from "~/ai/registry.server";
import type { Db } from "~/db/client.server";
import type { JobQueue } from "~/lib/job-queue";
import { alertConfig, type Classify, type ReplyDeps } from "./reply-deps";
import { jobQueue } from "~/jobs/job-queue.server";

/** The AI classifier (app/ai) as the reply processors call it: one recorded classification per message. */
export function classifierFor(env: AiEnv, db: Db, now: () => Date = () => new Date()): Classify {
  const providers = aiProvidersFor(env);
  return (text, messageId) => classifyReply({ providers, db, now, log: recordingLog(db, now) }, text, { messageId });
}

/**
 * The reply processors' providers from the environment: queue, alert addresses, the AI classifier, and the reply
 * drafter `useAI` responders use (app/ai/draft-reply.server.ts; the offline composer closes its chain).
 */
export function replyDepsFor(env: Env, db: Db, queue: JobQueue = jobQueue(env)): Omit<ReplyDeps, "db" | "now"> {
  const providers = aiProvidersFor(env as AiEnv);
  return {
    queue,
    config: alertConfig(env),
    classify: classifierFor(env as AiEnv, db),
    draft: async (input) => (await draftReply({ providers, log: recordingLog(db, () => new Date()) }, input)).text,
  };
}
