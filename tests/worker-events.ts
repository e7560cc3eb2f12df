import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
} from "cloudflare:test";
import worker from "../workers/app";
import { sendJobsFor } from "~/jobs/jobs";
import { ORIGIN } from "./factories";

/**
 * Delivers `bodies` as one batch of `queue` ("helio-jobs": sends; "helio-tasks": every other job) to the real
 * Worker's queue handler, with `e` as its env (default: the test env), and returns what it acked and retried.
 */
export async function runQueue(
  queue: string,
  bodies: unknown[],
  e: Env = env,
  idOf = (_body: unknown, i: number) => `${queue}-${crypto.randomUUID()}-${i}`,
) {
  const batch = createMessageBatch(
    queue,
    bodies.map((body, i) => ({ id: idOf(body, i), timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, e as never);
  return getQueueResult(batch, ctx);
}

/** The send consumer for these messages, as the send queue would deliver their jobs (the producer's sendJobsFor). */
export const runSendJobs = (messageIds: number[], e: Env = env) => runQueue("helio-jobs", sendJobsFor(messageIds), e);

/** One cron tick of the real Worker (every minute's work) as if it ran at `at`. */
export const cronTick = (at = new Date(), e: Env = env) =>
  worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: at }), e as never);

/**
 * A request through the real Worker with `e` as its env (the test env with other settings, e.g. Twilio pointed at a
 * fake): the session cookie, Host, and Origin on a document POST as a browser sends them; redirects not followed.
 */
export async function fetchWith(e: Env, path: string, init: RequestInit & { cookie?: string; base?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("Cookie", init.cookie);
  const base = init.base ?? ORIGIN;
  headers.set("Host", new URL(base).host); // Remix compares a document POST's Origin with it
  if (init.method === "POST" && !headers.has("Origin") && !path.startsWith("/webhooks/")) headers.set("Origin", base);
  const ctx = createExecutionContext();
  const request = new Request(base + path, { ...init, headers, redirect: "manual" }) as unknown as Request<
    unknown,
    IncomingRequestCfProperties
  >;
  return worker.fetch(request, e, ctx);
}
