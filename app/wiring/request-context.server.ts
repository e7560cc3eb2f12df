import type { AppLoadContext } from "@remix-run/cloudflare";
import type { AiDeps } from "~/ai/run-chain.server";
import type { Db } from "~/db/client.server";
import type { Clock } from "~/lib/clock";
import type { JobQueue } from "~/lib/job-queue";
import type { PipelineContext } from "~/messaging/pipeline-hooks";
import type { SmsProvider } from "~/messaging/providers/provider";
import type { AlertConfig, ReplyDeps } from "~/responders/reply-deps";
import { buildAppDeps } from "./app-deps.server";
import type { PushConfig } from "~/push/push-config";

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: { env: Env; ctx: ExecutionContext };
    db: Db;
    clock: Clock;
    /** Per-request CSP nonce for Remix's inline scripts. */
    nonce: string;
    /** The producers' queue (decision 009). */
    queue: JobQueue;
    /** db, queue, the pipeline's hooks and this request's `now`: what a route hands a domain operation. */
    domain: () => PipelineContext;
    /** The AI provider chain for a call on a user's behalf (charge their quota first: `chargedAiCall`). */
    ai: () => AiDeps;
    /** Auto-responders' and smart alerts' dependencies for this request (test alerts). */
    replyDeps: () => ReplyDeps;
    /** The alert addresses and links (the smart-alert screens show the sales address). */
    alerts: () => AlertConfig;
    /** Web Push's VAPID configuration, null when push is off (decision 049). */
    push: () => PushConfig | null;
    /** The SMS provider (the users screen asks it whether a rep's sending number is the account's, decision 045). */
    sms: () => SmsProvider;
  }
}

/** The Remix load context of one request, from the composition root. */
export function requestContext(env: Env, ctx: ExecutionContext, nonce: string): AppLoadContext {
  const deps = buildAppDeps(env);
  return {
    cloudflare: { env, ctx },
    db: deps.db,
    clock: deps.clock,
    nonce,
    queue: deps.queue,
    domain: () => deps.context(),
    ai: deps.ai,
    replyDeps: () => deps.replyDeps(),
    alerts: deps.alerts,
    push: () => deps.push().config,
    sms: deps.sms,
  };
}
