import { resolveDueSegmentBroadcasts } from "~/messaging/resolve-segment-broadcasts.server";
import { and, eq, lt } from "drizzle-orm";
import { contactImports } from "~/db/schema";
import { purgeOldActivity } from "~/activity/purge-old-activity.server";
import { recordStatus } from "~/activity/system-status.server";
import { purgeOldCapWindows } from "~/caps/purge-old-cap-windows.server";
import { dispatchDueSteps } from "~/campaigns/dispatch-due-steps.server";
import { purgeExpiredSessions } from "~/auth/session.server";
import type { Db } from "~/db/client.server";
import type { JobQueue } from "~/lib/job-queue";
import type { SmsProvider } from "~/messaging/providers/provider";
import type { AlertConfig } from "~/responders/reply-deps";
import { escalateDueAlerts } from "~/responders/alerts/run-alerts.server";
import { sendDeferredAlerts } from "~/responders/alerts/route-alert-to-owner.server";
import { archiveOldMessages, type ArchiveBucket } from "~/messaging/archive-old-messages.server";
import { advanceOutboxStatuses } from "~/messaging/providers/outbox.server";
import { dispatchDueMessages } from "~/messaging/enqueue-due-messages.server";
import { reconcileMessages } from "~/messaging/reconcile-messages.server";
import { applyStatusBacklog, pruneStatusBacklog, recordStatusUpdates } from "~/messaging/record-status.server";
import { purgeOldRows } from "~/jobs/purge-old-rows.server";
import { sendAppointmentReminders } from "~/appointments/send-appointment-reminders.server";
import type { PipelineHooks } from "~/messaging/pipeline-hooks";
import { dispatchDueWebhooks } from "~/webhooks/dispatch-due-webhooks.server";
import { checkLineTypes } from "~/deliverability/check-line-types.server";
import { emitRecordedEvents } from "~/webhooks/emit-recorded-events.server";

/**
 * What the tasks take, built by the composition root (app/wiring/app-deps.server.ts `tickDeps`): `now` is the tick's
 * scheduled time for every task; the settings and the archive bucket come from the root too (no task reads `env`).
 */
export type TickDeps = {
  db: Db;
  now: Date;
  /** The activity log's retention in days (ACTIVITY_RETENTION_DAYS, else the default). */
  activityRetentionDays: () => number;
  /** Where the retention task archives old messages (R2 `ARCHIVE`). */
  archive: ArchiveBucket;
  queue: JobQueue;
  /** The pipeline's hooks (status reports tell the final-failure hooks). */
  hooks: Pick<PipelineHooks, "finalFailure">;
  sms: () => SmsProvider;
  alerts: () => AlertConfig;
};
type Task = (d: TickDeps) => Promise<unknown>;

/** Everything the per-minute Cron Trigger does. Each task is independent: one failing does not stop the rest. */
export async function runScheduledTick(deps: TickDeps, tasks: Task[] = defaultTasks) {
  const results = await Promise.allSettled(tasks.map((t) => t(deps)));
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
  for (const f of failed) console.error("scheduled task failed", f.reason);
  // The analytics screen's "last cron tick" (Cron never fires under wrangler dev, so it can honestly say "never").
  await recordStatus(deps.db, "cron_tick", { ran: tasks.length, failed: failed.length }, deps.now).catch((e) =>
    console.error("recording the tick failed", e),
  );
  return { ran: tasks.length, failed: failed.length };
}

/** Activity entries past the retention the composition root read (ACTIVITY_RETENTION_DAYS). */
export const purgeActivityTask: Task = ({ db, activityRetentionDays, now }) =>
  purgeOldActivity(db, now, activityRetentionDays());

/**
 * Housekeeping (purges past a retention; nothing a person or a send waits for) runs once every HOUSEKEEPING_EVERY
 * minutes, each task on its own minute, so no tick carries them all: an idle tick read 35 rows with every purge's
 * empty seek on it (issue 22's budget is 30). Each purge still removes a bounded chunk per run (500: 72,000 rows a
 * day per table at this cadence, far above what a team writes into them); expired sessions and cap windows are
 * refused by their readers on time alone, so a later purge changes nothing anyone sees.
 */
export const HOUSEKEEPING_EVERY = 10;
export function housekeeping(minute: number, task: Task): Task {
  return (d) =>
    Math.floor(d.now.getTime() / 60_000) % HOUSEKEEPING_EVERY === minute ? task(d) : Promise.resolve(null);
}

export const defaultTasks: Task[] = [
  housekeeping(0, ({ db, now }) => purgeExpiredSessions(db, now)),
  // Scheduled sends and quiet-hours deferrals whose time has come.
  ({ db, queue, now }) => dispatchDueMessages(db, queue, now),
  // Broadcasts to a saved segment whose time has come (decision 075): the segment's contacts read now, written as due
  // messages the next tick's dispatch queues.
  async ({ db, now }) => {
    const r = await resolveDueSegmentBroadcasts({ db, now });
    if (r.broadcasts) console.log("segment-broadcasts", JSON.stringify(r));
  },
  // Campaign steps that have come due (app/campaigns): creates their messages through the same pipeline.
  // One debug line per tick (read by bench/campaign.mjs): how much was due and what the dispatcher read for it.
  async ({ db, queue, now }) =>
    console.debug("campaign-dispatch", JSON.stringify(await dispatchDueSteps(db, queue, now))),
  // Appointment reminders that have come due (decision 055): the day before and shortly before, through the pipeline.
  ({ db, queue, now }) => sendAppointmentReminders({ db, queue, now }),
  ({ db, queue, sms, hooks, now }) => reconcileMessages(db, queue, sms(), now, hooks.finalFailure),
  // Local outbox: simulate the provider's delivery reports.
  async ({ db, queue, hooks, now }) => {
    const changed = await advanceOutboxStatuses(db, now);
    if (changed.length) await recordStatusUpdates(db, changed, now, { hooks, queue });
  },
  ({ db, queue, hooks, now }) => applyStatusBacklog(db, now, undefined, { hooks, queue }),
  housekeeping(8, ({ db, now }) => pruneStatusBacklog(db, now)),
  // Activity entries past ACTIVITY_RETENTION_DAYS (default 365), a bounded batch per run.
  housekeeping(2, (d) => purgeActivityTask(d)),
  // login_history, chat_messages, alerts, ai_classifications past their retention (decision 022), a chunk each per run.
  housekeeping(4, async ({ db, now }) => {
    const removed = await purgeOldRows(db, now);
    if (Object.keys(removed).length) console.log("retention-purge", JSON.stringify(removed));
  }),
  // Contacts' numbers never looked up (decision 069): landlines marked not sendable, within the day's lookup cap
  // (off by default). Every ten minutes: a new lead's first text does not wait for it, an imported list is cleaned.
  housekeeping(3, async ({ db, sms, now }) => {
    const r = await checkLineTypes({ db, sms: sms(), now });
    if (r.looked) console.log("line-types", JSON.stringify(r));
  }),
  // Cap counter windows that have ended (decision 021), a bounded chunk per run through their expires_at index.
  housekeeping(6, ({ db, now }) => purgeOldCapWindows(db, now)),
  // Smart alerts nobody acknowledged within their profile's escalationTime go to the escalation address.
  ({ db, queue, alerts, now }) => escalateDueAlerts({ db, queue, now, config: alerts() }),
  // Owner-first alerts (decision 050): the profile's recipients, once the owner's time to answer has passed.
  ({ db, queue, alerts, now }) => sendDeferredAlerts({ db, queue, now, config: alerts() }),
  // Messages older than the retention (org setting, default 18 months) → R2, a bounded chunk per tick (decision 017).
  async ({ db, archive, now }) => {
    const r = await archiveOldMessages(db, archive, now);
    if (r.archived || r.busy) console.log("message-archive", JSON.stringify(r));
  },
  // Outbound webhook retries whose time has come (decision 036), a bounded batch through their partial index.
  ({ db, queue, now }) => dispatchDueWebhooks(db, queue, now),
  // contact.opted_out and alert.created from the rows every path writes, past a cursor (decision 036).
  ({ db, queue, now }) => emitRecordedEvents({ db, queue, now }),
  // Uploads that were previewed but never confirmed.
  housekeeping(8, ({ db, now }) =>
    db
      .delete(contactImports)
      .where(
        and(eq(contactImports.status, "staged"), lt(contactImports.createdAt, new Date(now.getTime() - 24 * 3600_000))),
      ),
  ),
];
