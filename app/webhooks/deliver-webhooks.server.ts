import { eq, sql } from "drizzle-orm";
import { hitCap } from "~/caps/hit-cap.server";
import type { Db } from "~/db/client.server";
import { webhookDeliveries, webhookSubscriptions, type WebhookSubscription } from "~/db/schema";
import { logActivity } from "~/activity/log-activity.server";
import { isAppError } from "~/lib/app-error";
import type { JobQueue } from "~/lib/job-queue";
import { createOutboundMessages } from "~/messaging/create-outbound-messages.server";
import { checkWebhookUrl } from "./check-webhook-url.server";
import { signWebhook } from "./sign-webhook.server";

const MINUTE = 60_000;
/** Waits before each retry (decision 036): 1 min, 5 min, 30 min, 2 h, 8 h — then the delivery has failed. */
export const RETRY_DELAYS_MS = [1, 5, 30, 120, 480].map((m) => m * MINUTE);
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** A subscription is disabled after this many failed attempts in a row… */
export const DISABLE_AFTER_FAILURES = 10;
/** …or when every attempt has failed for a day. */
export const DISABLE_AFTER_MS = 24 * 60 * MINUTE;
export const TIMEOUT_MS = 10_000;
/** How much of a receiver's answer the log keeps. */
export const RESPONSE_EXCERPT = 500;
const HOUR = 60 * MINUTE;

export type WebhookDeps = {
  db: Db;
  queue: JobQueue;
  clock: () => Date;
  fetch: typeof fetch;
  /** WEBHOOKS_ALLOW_PRIVATE=1 (composition root): http and loopback receivers, for local runs and tests. */
  allowPrivate: boolean;
  /** Where a disabled subscription's staff alert goes (SALES_ALERT_EMAIL), and the link in it. */
  alertEmail: string | null;
  publicBaseUrl: string;
  /** Jitter source (tests pin it). */
  random?: () => number;
  timeoutMs?: number;
};

export type AttemptResult = {
  ok: boolean;
  statusCode: number | null;
  response: string | null;
  error: string | null;
  ms: number;
};

/** The delay before retry n (1-based), ±20 % jitter so a receiver's outage does not come back as one burst. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1];
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * The queue consumer for `webhook-delivery` jobs: one signed POST per pending delivery. A delivery that is not
 * pending (already done, a duplicate queue message) is skipped. Outcomes are written to the row (the log) and to
 * the subscription's failure run; retries wait in the row for the cron tick (`dispatchDueWebhooks`).
 */
export async function deliverWebhooks(deps: WebhookDeps, deliveryIds: number[]) {
  for (const id of deliveryIds) await deliverOne(deps, id);
}

async function deliverOne(deps: WebhookDeps, id: number) {
  const { db } = deps;
  const row = await db
    .select({ d: webhookDeliveries, s: webhookSubscriptions })
    .from(webhookDeliveries)
    .innerJoin(webhookSubscriptions, eq(webhookSubscriptions.id, webhookDeliveries.subscriptionId))
    .where(eq(webhookDeliveries.id, id))
    .get();
  if (!row || row.d.status !== "pending") return;
  const { d, s } = row;
  const now = deps.clock();
  if (!s.enabled) {
    await db
      .update(webhookDeliveries)
      .set({ status: "failed", lastError: "The subscription is disabled", nextAttemptAt: null })
      .where(eq(webhookDeliveries.id, id));
    return;
  }
  // The subscription's own cap (every automatic channel has one): past it the delivery waits for the next window.
  const cap = await hitCap(db, "webhookPerSubscription", String(s.id), { windowMs: HOUR, limit: s.maxPerHour }, now);
  if (!cap.allowed) {
    await db
      .update(webhookDeliveries)
      .set({
        status: "retrying",
        nextAttemptAt: new Date(cap.resetAt),
        lastError: `Held: over ${s.maxPerHour} deliveries this hour`,
      })
      .where(eq(webhookDeliveries.id, id));
    return;
  }
  // Signed with the wall clock, not the event's `now`: the receiver measures the timestamp against its own clock,
  // and a retry (or a cron tick's scheduled time) must not look like an old, replayed request.
  const result = await attempt(deps, s, d.payload, d.eventId, new Date());
  const attempts = d.attempts + 1;
  const done = deps.clock();
  const log = {
    attempts,
    lastAttemptAt: now,
    lastStatusCode: result.statusCode,
    lastResponse: result.response,
    lastDurationMs: result.ms,
    lastError: result.error,
  };
  if (result.ok) {
    await db.batch([
      db
        .update(webhookDeliveries)
        .set({ ...log, status: "delivered", nextAttemptAt: null })
        .where(eq(webhookDeliveries.id, id)),
      db
        .update(webhookSubscriptions)
        .set({ consecutiveFailures: 0, failingSince: null })
        .where(eq(webhookSubscriptions.id, s.id)),
    ]);
    return;
  }
  const retry = attempts < MAX_ATTEMPTS;
  const [, failed] = await db.batch([
    db
      .update(webhookDeliveries)
      .set({
        ...log,
        status: retry ? "retrying" : "failed",
        nextAttemptAt: retry ? new Date(done.getTime() + retryDelayMs(attempts, deps.random)) : null,
      })
      .where(eq(webhookDeliveries.id, id)),
    db
      .update(webhookSubscriptions)
      .set({
        consecutiveFailures: sql`${webhookSubscriptions.consecutiveFailures} + 1`,
        failingSince: sql`coalesce(${webhookSubscriptions.failingSince}, ${now.getTime()})`,
      })
      .where(eq(webhookSubscriptions.id, s.id))
      .returning({
        consecutiveFailures: webhookSubscriptions.consecutiveFailures,
        failingSince: webhookSubscriptions.failingSince,
        enabled: webhookSubscriptions.enabled,
      }),
  ]);
  const run = failed[0];
  if (
    run?.enabled &&
    (run.consecutiveFailures >= DISABLE_AFTER_FAILURES ||
      (run.failingSince && now.getTime() - run.failingSince.getTime() >= DISABLE_AFTER_MS))
  ) {
    const reason = `Disabled automatically after ${run.consecutiveFailures} failed deliveries in a row (last: ${
      result.statusCode ? `HTTP ${result.statusCode}` : result.error
    })`;
    await disableForFailures(deps, s, reason, now);
  }
}

/** One signed POST with a timeout; redirects are not followed (a redirect could point anywhere, SSRF). */
export async function attempt(
  deps: Pick<WebhookDeps, "fetch" | "allowPrivate" | "timeoutMs">,
  s: Pick<WebhookSubscription, "url" | "secret">,
  body: string,
  eventId: string,
  now: Date,
): Promise<AttemptResult> {
  const started = Date.now();
  const ms = () => Date.now() - started;
  try {
    const url = checkWebhookUrl(s.url, { allowPrivate: deps.allowPrivate });
    const res = await deps.fetch(url.toString(), {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(deps.timeoutMs ?? TIMEOUT_MS),
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Helio-Webhooks/1",
        "Helio-Event-Id": eventId,
        "Helio-Signature": await signWebhook(s.secret, body, now),
      },
      body,
    });
    const text = (await res.text().catch(() => "")).slice(0, RESPONSE_EXCERPT);
    const ok = res.status >= 200 && res.status < 300;
    return { ok, statusCode: res.status, response: text, error: ok ? null : `HTTP ${res.status}`, ms: ms() };
  } catch (e) {
    const error = isAppError(e)
      ? e.message
      : e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError")
        ? `Timed out after ${Math.round((deps.timeoutMs ?? TIMEOUT_MS) / 1000)} s`
        : `Network error: ${e instanceof Error ? e.message : String(e)}`.slice(0, RESPONSE_EXCERPT);
    return { ok: false, statusCode: null, response: null, error, ms: ms() };
  }
}

/**
 * Turns a failing subscription off with a visible reason, logs it, and tells the team through the staff alert
 * email (kind `alert`, the smart alerts' path: SALES_ALERT_EMAIL). Only the call that flips `enabled` alerts.
 */
async function disableForFailures(deps: WebhookDeps, s: WebhookSubscription, reason: string, now: Date) {
  const { db } = deps;
  const flipped = await db
    .update(webhookSubscriptions)
    .set({ enabled: false, disabledReason: reason, updatedAt: now })
    .where(sql`${webhookSubscriptions.id} = ${s.id} AND ${webhookSubscriptions.enabled} = 1`)
    .returning({ id: webhookSubscriptions.id });
  if (!flipped.length) return;
  await logActivity(db, "webhook_disabled", { userId: null, details: { subscriptionId: s.id, reason }, now });
  if (!deps.alertEmail) return;
  await createOutboundMessages(
    db,
    deps.queue,
    [
      {
        channel: "email",
        kind: "alert",
        email: deps.alertEmail,
        subject: `Webhook disabled: ${new URL(s.url).host}`,
        content: [
          `The webhook to ${s.url} was turned off.`,
          "",
          reason,
          "",
          `Check the receiver, then turn it on again: ${deps.publicBaseUrl}/settings/webhooks/${s.id}`,
        ].join("\n"),
        idempotencyKey: `webhook-disabled:${s.id}:${now.getTime()}`,
      },
    ],
    now,
  );
}
