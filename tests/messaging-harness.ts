import { isSentTextOf, parseLinkCode } from "~/messaging/tracked-links";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import type { JobQueue } from "~/lib/job-queue";
import type { MessagingConfig } from "~/messaging/messaging-config.server";
import { createSendGridEmail } from "~/messaging/providers/sendgrid.server";
import { createTwilioSms } from "~/messaging/providers/twilio.server";
import { sendMessages, type SendDeps } from "~/messaging/consume-send-batch.server";
import { createOutboundMessages, type OutboundInput } from "~/messaging/create-outbound-messages.server";
import { messageIdsOf, type SendJob } from "~/jobs/jobs";
import { processInboundMessages } from "~/messaging/receive-inbound.server";
import { sendBroadcast } from "~/messaging/send-broadcast.server";
import type { ReplyProviders } from "~/wiring/ai-chain.server";
import { pipelineHooks } from "~/wiring/pipeline-hooks.server";
import { newFakeSendGridKey, newFakeTwilioAccount } from "./fakes/control";
import { db } from "./factories";
import { uniquePhone } from "./contact-factory";

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
    /** The messages the send jobs enqueued so far name, drained. */
    takeSendIds(): number[] {
      return this.takeSendJobs().flatMap(messageIdsOf);
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
  linkSecret: "test-session-secret",
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

/*
 * Each pipeline gets its own sender so pacing rows never interfere across tests. A counter, not a random pick: two
 * tests of one file that drew the same number shared a pacing row, and a test on a past clock then waited for a slot
 * an earlier test had reserved at the real time (a CI run lost "Evening offer" that way).
 */
let senderSeq = Math.floor(Math.random() * 9000);
const nextSender = () => `+1602555${String(1000 + (senderSeq++ % 9000))}`;

/** Pipeline dependencies wired to fresh, isolated accounts on the fake Twilio and SendGrid servers. */
export async function pipeline(
  opts: { clock?: () => Date; config?: Partial<MessagingConfig>; from?: string; dbOverride?: Db } = {},
) {
  const twilio = await newFakeTwilioAccount();
  const sendgrid = await newFakeSendGridKey();
  const from = opts.from ?? nextSender();
  const deps: SendDeps = {
    db: opts.dbOverride ?? db(),
    sms: createTwilioSms(twilio.config({ from })),
    email: createSendGridEmail(sendgrid.config()),
    config: { ...TEST_CONFIG, ...opts.config },
    clock: opts.clock ?? (() => new Date()),
    hooks: appHooks,
    queue: recordingQueue(),
  };
  return { deps, twilio, sendgrid, queue: deps.queue as ReturnType<typeof recordingQueue> };
}

/**
 * Writes one outbound message the way most pipeline tests need it: a test SMS to a fresh number with a fresh
 * idempotency key (`fields` changes any of it; an email needs `channel`, `email` and `subject`). Returns its id, or
 * undefined when the key was already used.
 */
export async function queueMessage(
  deps: Pick<SendDeps, "db">,
  queue: ReturnType<typeof recordingQueue>,
  fields: Partial<OutboundInput> & { content: string },
  now = new Date(),
  hooks?: Parameters<typeof createOutboundMessages>[4],
) {
  const input: OutboundInput = {
    channel: "sms",
    kind: "test",
    idempotencyKey: `t:${crypto.randomUUID()}`,
    ...fields,
  };
  if (input.channel === "sms" && !("phone" in fields)) input.phone = uniquePhone();
  const [id] = await createOutboundMessages(deps.db, queue, [input], now, hooks);
  return id;
}

/** A broadcast sent at `now` with the app's hooks, then one consumer pass over the send jobs it queued. */
export async function broadcastAndSend(
  { deps, queue }: { deps: SendDeps; queue: ReturnType<typeof recordingQueue> },
  now: Date,
  input: Parameters<typeof sendBroadcast>[1],
  actor: Parameters<typeof sendBroadcast>[2],
) {
  const result = await sendBroadcast({ db: deps.db, queue, now, hooks: appHooks }, input, actor);
  await sendMessages(queue.takeSendJobs(), deps);
  return result;
}

/** `n` test texts to fresh numbers, "<label> 0", "<label> 1", …, each with its own idempotency key. */
export const testTexts = (n: number, label: string): OutboundInput[] =>
  Array.from({ length: n }, (_, i) => ({
    channel: "sms",
    kind: "test",
    phone: uniquePhone(),
    content: `${label} ${i}`,
    idempotencyKey: `${label}:${crypto.randomUUID()}`,
  }));

export async function messageRow(id: number) {
  return db().get<Record<string, any>>(sql`SELECT * FROM messages WHERE id = ${id}`);
}

/** A daytime instant in every US zone, inside even the strictest state window (09:00–18:00): 19:30 UTC is 09:30 in Honolulu, 14:30 in New York. */
export const DAYTIME = new Date("2026-11-18T19:30:00Z");

/**
 * A text as Twilio got it, with its tracked links (decision 068) read back as the message's own links: for tests of
 * what a text says rather than how its links travel. A body that is not its message's tracked form is returned as is.
 */
export async function asWritten(body: string | null): Promise<string | null> {
  if (body === null) return null;
  const code = /\/l\/([A-Za-z0-9_-]+)/.exec(body)?.[1];
  const named = code ? parseLinkCode(code) : null;
  if (!named) return body;
  const row = await messageRow(named.messageId);
  return row && isSentTextOf(body, row.content, named.messageId) ? (row.content as string) : body;
}
