import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import type { JobQueue } from "~/lib/job-queue";
import type { MessagingConfig } from "~/messaging/messaging-config.server";
import { createSendGridEmail } from "~/messaging/providers/sendgrid.server";
import { createTwilioSms } from "~/messaging/providers/twilio.server";
import type { SendDeps } from "~/messaging/consume-send-batch.server";
import type { SendJob } from "~/jobs/jobs";
import { processInboundMessages } from "~/messaging/receive-inbound.server";
import type { ReplyProviders } from "~/wiring/ai-chain.server";
import { pipelineHooks } from "~/wiring/pipeline-hooks.server";
import { newFakeSendGridKey, newFakeTwilioAccount } from "./fakes/control";
import { db } from "./factories";

/** A queue that records what the pipeline enqueues, so a test decides when the consumer runs. */
export function recordingQueue() {
  const sent: unknown[] = [];
  return {
    sent,
    async sendBatch(msgs: Iterable<MessageSendRequest<unknown>>) {
      for (const m of msgs) sent.push(m.body);
    },
    async send(body: unknown) {
      sent.push(body);
    },
    /** Send jobs enqueued so far, drained. */
    takeSendJobs(): SendJob[] {
      const jobs = sent.filter((b): b is SendJob => (b as SendJob)?.type === "send");
      sent.length = 0;
      return jobs;
    },
  };
}

export const TEST_CONFIG: MessagingConfig = {
  publicBaseUrl: "https://helio.test",
  publicUrlProblem: null,
  smsRatePerSecond: 1000,
  smsDailyCap: 1_000_000,
  companyAddress: "Helio Solar, 1 Sun Way, Phoenix AZ 85001",
  unsubscribeSecret: "test-session-secret",
};

/**
 * The pipeline's hooks as the composition root registers them (app/wiring/pipeline-hooks.server.ts), without the
 * auto-responders and smart alerts (they need their providers: `runInboundJob` with `replies`).
 */
export const appHooks = pipelineHooks(null);

/**
 * The inbound job as the queue runs it (app/jobs/job-handlers.server.ts): the root's inbound processors in their
 * order; with `replies`, the auto-responders and smart alerts run too.
 */
export function runInboundJob(db: Db, messageIds: number[], now: Date, replies?: ReplyProviders, queue?: JobQueue) {
  const hooks = pipelineHooks(replies ? () => replies : null);
  return processInboundMessages(
    { db, queue: queue ?? replies?.queue ?? recordingQueue(), now },
    messageIds,
    hooks.inbound,
  );
}

/** Pipeline dependencies wired to fresh, isolated accounts on the fake Twilio and SendGrid servers. */
export async function pipeline(
  opts: { clock?: () => Date; config?: Partial<MessagingConfig>; from?: string; dbOverride?: Db } = {},
) {
  const twilio = await newFakeTwilioAccount();
  const sendgrid = await newFakeSendGridKey();
  // Each test gets its own sender so pacing rows never interfere across tests.
  const from = opts.from ?? `+1602555${String(Math.floor(Math.random() * 9000) + 1000)}`;
  const deps: SendDeps = {
    db: opts.dbOverride ?? db(),
    sms: createTwilioSms(twilio.config({ from })),
    email: createSendGridEmail(sendgrid.config()),
    config: { ...TEST_CONFIG, ...opts.config },
    clock: opts.clock ?? (() => new Date()),
    hooks: appHooks,
  };
  return { deps, twilio, sendgrid, queue: recordingQueue() };
}

export async function messageRow(id: number) {
  return db().get<Record<string, any>>(sql`SELECT * FROM messages WHERE id = ${id}`);
}

/** A daytime instant for every US zone (17:00 UTC = 09:00–13:00 across the continental US, 07:00 Hawaii — avoid Hawaii). */
export const DAYTIME = new Date("2026-11-18T18:30:00Z");
