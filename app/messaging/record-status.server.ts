import { sql } from "drizzle-orm";
import { bulkUpdateSql } from "~/db/bulk-update.server";
import type { Db } from "~/db/client.server";
import { messages } from "~/db/schema";

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

export type StatusUpdate = { sid: string; status: string; errorCode?: string | null; errorMessage?: string | null };

/**
 * Applies provider status reports (Twilio callbacks, the local outbox) idempotently and in order:
 * replays and out-of-order callbacks are harmless. Returns how many rows changed.
 */
export async function recordStatusUpdates(db: Db, updates: StatusUpdate[], now: Date): Promise<number> {
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
    ? await db.all<{ sid: string }>(
        unchanged.length === 1
          ? sql`SELECT twilio_sid AS sid FROM messages WHERE twilio_sid = ${unchanged[0]}`
          : sql`SELECT twilio_sid AS sid FROM messages WHERE twilio_sid IN (SELECT value FROM json_each(${JSON.stringify(unchanged)}))`,
      )
    : [];
  const knownSids = new Set([...changedSids, ...known.map((k) => k.sid)]);
  const unknown = updates.filter((u) => !knownSids.has(u.sid));
  if (unknown.length) {
    await db.run(sql`
      INSERT INTO status_backlog (sid, status, error_code, error_message, received_at)
      SELECT json_extract(value,'$.sid'), json_extract(value,'$.status'), json_extract(value,'$.errorCode'), json_extract(value,'$.errorMessage'), ${t}
      FROM json_each(${JSON.stringify(unknown)}) WHERE true
      ON CONFLICT(sid, status) DO NOTHING`);
  }
  const delivered = new Map<number, number>();
  for (const c of changed)
    if (c.campaign_id && c.status === "delivered")
      delivered.set(c.campaign_id, (delivered.get(c.campaign_id) ?? 0) + 1);
  for (const [id, n] of delivered)
    await db.run(sql`UPDATE campaigns SET delivered_count = delivered_count + ${n} WHERE id = ${id}`);
  return changed.length;
}

type BacklogRow = { sid: string; status: string; error_code: string | null; error_message: string | null };

/**
 * Statuses that arrived before their send was recorded, for these sids (or any, up to 500): a statement that can
 * end the batch that records the sends, so the join sees their sids without another round trip.
 */
export function selectStatusBacklog(db: Db, sids?: string[]) {
  return db.all<BacklogRow>(
    sids
      ? sql`SELECT b.sid, b.status, b.error_code, b.error_message FROM status_backlog b
            WHERE b.sid IN (SELECT value FROM json_each(${JSON.stringify(sids)})) AND EXISTS (SELECT 1 FROM messages m WHERE m.twilio_sid = b.sid)`
      : // The backlog drives (EXISTS, not a join): as a join SQLite walked every message's sid to probe an empty backlog.
        sql`SELECT b.sid, b.status, b.error_code, b.error_message FROM status_backlog b
            WHERE EXISTS (SELECT 1 FROM messages m WHERE m.twilio_sid = b.sid) LIMIT 500`,
  );
}

/** Applies backlog rows read by selectStatusBacklog to their messages and clears them. */
export async function applyBacklogRows(db: Db, now: Date, rows: readonly BacklogRow[]) {
  if (rows.length) {
    await recordStatusUpdates(
      db,
      rows.map((r) => ({ sid: r.sid, status: r.status, errorCode: r.error_code, errorMessage: r.error_message })),
      now,
    );
    await db.run(
      sql`DELETE FROM status_backlog WHERE sid IN (SELECT value FROM json_each(${JSON.stringify(rows.map((r) => r.sid))}))`,
    );
  }
  return rows.length;
}

/** Applies backlogged callbacks whose sids are now recorded (all such, or only those in `sids`). */
export async function applyStatusBacklog(db: Db, now: Date, sids?: string[]) {
  return applyBacklogRows(db, now, await selectStatusBacklog(db, sids));
}

export async function pruneStatusBacklog(db: Db, now: Date) {
  await db.run(sql`DELETE FROM status_backlog WHERE received_at < ${now.getTime() - 24 * 3600_000}`);
}
