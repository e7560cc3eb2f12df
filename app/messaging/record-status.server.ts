import { and, eq, exists, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { bulkInsertSql, bulkUpdateSql, inJson } from "~/db/bulk-update.server";
import type { Db } from "~/db/client.server";
import { campaigns, messages, statusBacklog } from "~/db/schema";
import type { JobQueue } from "~/lib/job-queue";
import { runFinalFailureHooks, type PipelineHooks } from "./pipeline-hooks";

/** Provider status → ours. Twilio's queued/accepted/sending are all "handed to the provider" = sent. */
export function mapProviderStatus(status: string): "sent" | "delivered" | "undelivered" | "failed" | null {
  switch (status.toLowerCase()) {
    case "accepted":
    case "scheduled":
    case "queued":
    case "sending":
    case "sent":
      return "sent";
    case "delivered":
    case "read":
      return "delivered";
    case "undelivered":
      return "undelivered";
    case "failed":
    case "canceled":
      return "failed";
    default:
      return null;
  }
}

// Status only moves forward: a late "sent" never overwrites "delivered"; terminal states never change.
const RANK = sql`CASE messages.status WHEN 'pending' THEN 0 WHEN 'queued' THEN 1 WHEN 'sending' THEN 2 WHEN 'sent' THEN 3 ELSE 4 END`;
const rankOf = (s: string) => (s === "sent" ? 3 : 4);

/**
 * Who hears of the messages a report moved to `failed`/`undelivered` (the pipeline's final-failure hooks and the
 * queue they use). Every production caller passes them; tests of the statuses alone may not.
 */
export type FailureListeners = { hooks: Pick<PipelineHooks, "finalFailure">; queue: JobQueue };

export type StatusUpdate = { sid: string; status: string; errorCode?: string | null; errorMessage?: string | null };

/**
 * Applies provider status reports (Twilio callbacks, the local outbox) idempotently and in order:
 * replays and out-of-order callbacks are harmless. Returns how many rows changed.
 */
export async function recordStatusUpdates(
  db: Db,
  updates: StatusUpdate[],
  now: Date,
  listeners?: FailureListeners,
): Promise<number> {
  const mapped = updates
    .map((u) => ({ ...u, mapped: mapProviderStatus(u.status) }))
    .filter((u): u is StatusUpdate & { mapped: NonNullable<ReturnType<typeof mapProviderStatus>> } => u.mapped !== null)
    .map((u) => ({
      sid: u.sid,
      status: u.mapped,
      rank: rankOf(u.mapped),
      errorCode: u.errorCode ?? null,
      errorMessage: u.errorMessage ?? null,
    }));
  if (mapped.length === 0) return 0;
  const t = now.getTime();
  const changed = await db.all<{ id: number; sid: string; campaign_id: number | null; status: string }>(
    bulkUpdateSql(messages, mapped, (j) => ({
      set: {
        status: j.status,
        errorCode: sql`coalesce(${j.errorCode}, ${messages.errorCode})`,
        errorMessage: sql`coalesce(${j.errorMessage}, ${messages.errorMessage})`,
        deliveredAt: sql`CASE WHEN ${j.status} = 'delivered' THEN ${t} ELSE ${messages.deliveredAt} END`,
        updatedAt: t,
      },
      // Found by its sid (the unique index) and nothing else: the unary + keeps SQLite off the direction index,
      // which would walk every outbound message of history for each callback (issue 22).
      where: sql`${messages.twilioSid} = ${j.sid} AND +${messages.direction} = 'outbound' AND ${RANK} < ${j.rank}`,
      returning: sql`${messages.id} AS id, ${messages.twilioSid} AS sid, ${messages.campaignId} AS campaign_id, ${messages.status} AS status`,
    })),
  );
  // Callbacks for sids we have not recorded yet wait in the backlog (see status-backlog.ts). Only the sids that
  // changed nothing need looking up: a replay, a late "sent" after "delivered", or a send not recorded yet.
  const changedSids = new Set(changed.map((c) => c.sid));
  const unchanged = [...new Set(mapped.map((u) => u.sid).filter((sid) => !changedSids.has(sid)))];
  const known = unchanged.length
    ? await db
        .select({ sid: messages.twilioSid })
        .from(messages)
        .where(unchanged.length === 1 ? eq(messages.twilioSid, unchanged[0]) : inJson(messages.twilioSid, unchanged))
    : [];
  const knownSids = new Set([...changedSids, ...known.map((k) => k.sid)]);
  const unknown = updates.filter((u) => !knownSids.has(u.sid));
  if (unknown.length) {
    await db.run(
      bulkInsertSql(statusBacklog, unknown, (j) => ({
        values: { sid: j.sid, status: j.status, errorCode: j.errorCode, errorMessage: j.errorMessage, receivedAt: t },
        onConflict: sql`ON CONFLICT(sid, status) DO NOTHING`,
      })),
    );
  }
  const delivered = new Map<number, number>();
  for (const c of changed)
    if (c.campaign_id && c.status === "delivered")
      delivered.set(c.campaign_id, (delivered.get(c.campaign_id) ?? 0) + 1);
  for (const [id, n] of delivered)
    await db
      .update(campaigns)
      .set({ deliveredCount: sql`${campaigns.deliveredCount} + ${n}` })
      .where(eq(campaigns.id, id));
  // Only rows this call changed: a replayed callback changes nothing and tells no one again.
  const failed = changed.filter((c) => c.status === "failed" || c.status === "undelivered").map((c) => c.id);
  if (listeners && failed.length)
    await runFinalFailureHooks(listeners.hooks.finalFailure, { db, queue: listeners.queue, now }, failed);
  return changed.length;
}

const b = alias(statusBacklog, "b");
const m = alias(messages, "m");

type BacklogRow = Pick<typeof statusBacklog.$inferSelect, "sid" | "status" | "errorCode" | "errorMessage">;

/**
 * Statuses that arrived before their send was recorded, for these sids (or any, up to 500): a statement that can
 * end the batch that records the sends, so the join sees their sids without another round trip.
 */
export function selectStatusBacklog(db: Db, sids?: string[]) {
  // The backlog drives (EXISTS, not a join): as a join SQLite walked every message's sid to probe an empty backlog.
  const recorded = exists(
    db
      .select({ one: sql`1` })
      .from(m)
      .where(eq(m.twilioSid, b.sid)),
  );
  const q = db
    .select({ sid: b.sid, status: b.status, errorCode: b.errorCode, errorMessage: b.errorMessage })
    .from(b)
    .where(sids ? and(inJson(b.sid, sids), recorded) : recorded);
  return sids ? q : q.limit(500);
}

/** Applies backlog rows read by selectStatusBacklog to their messages and clears them. */
export async function applyBacklogRows(db: Db, now: Date, rows: readonly BacklogRow[], listeners?: FailureListeners) {
  if (rows.length) {
    await recordStatusUpdates(
      db,
      rows.map((r) => ({ sid: r.sid, status: r.status, errorCode: r.errorCode, errorMessage: r.errorMessage })),
      now,
      listeners,
    );
    await db.delete(statusBacklog).where(
      inJson(
        statusBacklog.sid,
        rows.map((r) => r.sid),
      ),
    );
  }
  return rows.length;
}

/** Applies backlogged callbacks whose sids are now recorded (all such, or only those in `sids`). */
export async function applyStatusBacklog(db: Db, now: Date, sids?: string[], listeners?: FailureListeners) {
  return applyBacklogRows(db, now, await selectStatusBacklog(db, sids), listeners);
}

export async function pruneStatusBacklog(db: Db, now: Date) {
  await db.delete(statusBacklog).where(lt(statusBacklog.receivedAt, now.getTime() - 24 * 3600_000));
}
