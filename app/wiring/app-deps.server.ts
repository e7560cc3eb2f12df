import { activityRetentionDays } from "~/activity/purge-old-activity.server";
import type { AiDeps } from "~/ai/run-chain.server";
import { createDb, type Db } from "~/db/client.server";
import { jobQueue } from "~/jobs/job-queue.server";
import type { JobDeps } from "~/jobs/job-handlers.server";
import type { TickDeps } from "~/jobs/run-scheduled-tick.server";
import { systemClock, type Clock } from "~/lib/clock";
import type { JobQueue } from "~/lib/job-queue";
import { messagingConfig } from "~/messaging/messaging-config.server";
import type { SendDeps } from "~/messaging/consume-send-batch.server";
import type { PipelineContext, PipelineHooks } from "~/messaging/pipeline-hooks";
import { emailProviderFor, smsProviderFor } from "~/messaging/providers/registry.server";
import type { MediaDeps } from "~/messaging/fetch-inbound-media.server";
import type { SmsProvider } from "~/messaging/providers/provider";
import { alertConfig, type AlertConfig, type ReplyDeps } from "~/responders/reply-deps";
import { aiChain, replyProviders, type ReplyProviders } from "./ai-chain.server";
import type { WebhookDeps } from "~/webhooks/deliver-webhooks.server";
import type { PushDeps } from "~/push/notify-push.server";
import { pushConfig } from "~/push/push-config";
import { enqueueBillPush } from "~/push/push-jobs";
import { pipelineHooks } from "./pipeline-hooks.server";

/**
 * The composition root (decision 028): everything the Worker's fetch, queue and scheduled handlers hand down —
 * built here and nowhere else. Features never build their own dependencies; they take them as arguments.
 * Everything that reads configuration is built when first asked for, as before, so a request that needs no provider
 * never reads the provider settings.
 */
export type AppDeps = {
  env: Env;
  db: Db;
  /** The one source of time. Handlers read it once per request or event (`now`); long runs keep the clock. */
  clock: Clock;
  /** Producers' queue: `send` jobs to helio-jobs, every other job to helio-tasks (decision 009). */
  queue: JobQueue;
  /** What campaigns, auto-responders, smart alerts and AI plug into the pipeline. */
  hooks: PipelineHooks;
  /** A domain context for one request or event: `now` read once from the clock (or the event's own time). */
  context: (now?: Date) => PipelineContext;
  /** The send consumer's providers and configuration. */
  send: () => SendDeps;
  sms: () => SmsProvider;
  /** The AI provider chain (budgeted, failures recorded). */
  ai: () => AiDeps;
  /** The reply processors' providers (alert addresses, classifier, drafter, cap limits). */
  replies: () => ReplyProviders;
  /** Auto-responders' and smart alerts' dependencies for one request or event. */
  replyDeps: (now?: Date) => ReplyDeps;
  /** The alert addresses and links (SALES_ALERT_EMAIL, PUBLIC_BASE_URL): the alert screens and the escalations. */
  alerts: () => AlertConfig;
  /** The activity log's retention in days (ACTIVITY_RETENTION_DAYS). */
  activityRetentionDays: () => number;
  /** The message archive's R2 bucket. */
  archive: R2Bucket;
  /** Inbound MMS files (decision 057): the R2 bucket `MEDIA` and the provider that fetches them. */
  media: (now?: Date) => MediaDeps;
  /** Outbound webhook delivery: fetch, the SSRF switch, where a disabled subscription's alert goes. */
  webhooks: () => WebhookDeps;
  /** Web Push (decision 049): the VAPID keys from VAPID_* (null = off), fetch, the links' base. */
  push: (now?: Date) => PushDeps;
};

/**
 * WEBHOOKS_ALLOW_PRIVATE=1 lets webhooks go to http and loopback/private receivers (local runs, tests); production
 * leaves it unset (decision 036).
 */
export function webhooksAllowPrivate(env: object): boolean {
  return (env as { WEBHOOKS_ALLOW_PRIVATE?: string }).WEBHOOKS_ALLOW_PRIVATE === "1";
}

export function buildAppDeps(env: Env, clock: Clock = systemClock): AppDeps {
  const db = createDb(env.DB);
  const queue = jobQueue(env);
  const replies = () => replyProviders(env, db, queue, clock);
  const { salesAlertEmail, publicBaseUrl } = alertConfig(env);
  const hooks = pipelineHooks(replies, { alertEmail: salesAlertEmail, publicBaseUrl });
  const sms = () => smsProviderFor(env, db, clock);
  return {
    env,
    db,
    clock,
    queue,
    hooks,
    context: (now = clock()) => ({ db, queue, now, hooks }),
    send: () => ({
      db,
      config: messagingConfig(env),
      sms: sms(),
      email: emailProviderFor(env, db, clock),
      clock,
      hooks,
      queue,
    }),
    sms,
    ai: () => aiChain(env, db, clock),
    replies,
    replyDeps: (now = clock()) => ({ ...replies(), db, now }),
    alerts: () => alertConfig(env),
    activityRetentionDays: () => activityRetentionDays(env),
    archive: env.ARCHIVE,
    media: (now = clock()) => ({
      db,
      bucket: env.MEDIA,
      sms,
      now,
      // A lead's first picture tells its owner (a push that replaces the reply's).
      billReceived: (messageId: number) => enqueueBillPush(queue, messageId),
    }),
    webhooks: () => {
      const { salesAlertEmail, publicBaseUrl } = alertConfig(env);
      return {
        db,
        queue,
        clock,
        fetch: (input, init) => fetch(input, init),
        allowPrivate: webhooksAllowPrivate(env),
        alertEmail: salesAlertEmail,
        publicBaseUrl,
      };
    },
    push: (now = clock()) => ({
      db,
      queue,
      now,
      config: pushConfig(env),
      publicBaseUrl: alertConfig(env).publicBaseUrl,
      fetch: (input, init) => fetch(input, init),
    }),
  };
}

/** The queue consumer's dependencies (app/jobs/job-handlers.server.ts takes what it needs from them). */
export function jobDeps(env: Env, clock: Clock = systemClock): JobDeps {
  return buildAppDeps(env, clock);
}

/** The cron tick's dependencies: `now` is the tick's scheduled time, for every task of the tick. */
export function tickDeps(env: Env, now: Date): TickDeps {
  const deps = buildAppDeps(env);
  return { ...deps, now, sms: () => smsProviderFor(env, deps.db, () => now) };
}
