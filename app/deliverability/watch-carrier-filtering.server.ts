import { and, eq, gte, isNull, sql } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import { inJson } from "~/db/bulk-update.server";
import type { Db } from "~/db/client.server";
import type { DomainContext } from "~/db/domain-context";
import { messages, senderPacing } from "~/db/schema";
import { createOutboundMessages } from "~/messaging/create-outbound-messages.server";
import { FILTERING_CODES, filteredToPause, pauseReason } from "./carrier-filtering";
import { loadPauseThreshold } from "./pause-threshold.server";

/** Where a pause is told (SALES_ALERT_EMAIL, as a disabled webhook is) and the link to Compliance. */
export type PauseAlerts = { alertEmail: string | null; publicBaseUrl: string };

/** FILTERING_CODES as literals, as messages_filtered_sender_idx's WHERE spells them (a bound list cannot use it). */
export const FILTERED = sql.raw(`error_code IN (${FILTERING_CODES.map((c) => `'${c}'`).join(", ")})`);

/** The start of `now`'s UTC day: the day the threshold and the daily cap count. */
export const utcDayStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/**
 * How many of `sender`'s texts carriers filtered since `since`, counting no further than `upTo` (whether the
 * threshold is reached is all the hook asks): a seek of messages_filtered_sender_idx, those rows and nothing else.
 */
export function countFiltered(db: Db, sender: string, since: Date, upTo: number) {
  return db.select({ n: sql<number>`count(*)` }).from(
    db
      .select({ one: sql`1` })
      .from(messages)
      .where(and(FILTERED, eq(messages.fromAddress, sender), gte(messages.updatedAt, since)))
      .limit(upTo)
      .as("f"),
  );
}

/** The sending numbers of these failures that carry a filtering code: the failed rows by primary key, nothing else. */
export function filteredSendersOf(db: Db, messageIds: readonly number[]) {
  return db
    .selectDistinct({ sender: messages.fromAddress })
    .from(messages)
    .where(and(inJson(messages.id, messageIds), sql`${messages.channel} = 'sms'`, FILTERED));
}

/**
 * The pipeline's final-failure hook (registered in app/wiring): for each sending number among these failures with a
 * filtering code, counts its filtered texts today and, past the threshold (carrier-filtering.ts), pauses its
 * marketing, logs it and emails the alert address — once per pause: only the call whose conditional write sets the
 * pause tells anyone. Idempotent on the ids: the count is read from the rows, never incremented, so a redelivered
 * job counts nothing twice. Reads the failed rows by id, each number's pacing row, and at most the filtered rows that
 * reach the threshold (messages_filtered_sender_idx).
 */
export async function watchCarrierFiltering(ctx: DomainContext, messageIds: number[], alerts: PauseAlerts) {
  const { db, now } = ctx;
  const failed = await filteredSendersOf(db, messageIds);
  const senders = failed.flatMap((f) => (f.sender ? [f.sender] : []));
  if (!senders.length) return;
  // The organisation's thresholds: two primary-key reads, only when a filtered text came in.
  const threshold = await loadPauseThreshold(db);
  const day = now.toISOString().slice(0, 10);
  for (const sender of senders) {
    const [pacing] = await db
      .select({ day: senderPacing.day, dayCount: senderPacing.dayCount, pausedAt: senderPacing.marketingPausedAt })
      .from(senderPacing)
      .where(eq(senderPacing.sender, sender));
    if (pacing?.pausedAt) continue;
    const sentToday = pacing?.day === day ? pacing.dayCount : 0;
    const need = filteredToPause(sentToday, threshold);
    if (need === null) continue;
    const [{ n }] = await countFiltered(db, sender, utcDayStart(now), need);
    if (n < need) continue;
    const reason = pauseReason(sender, n, sentToday);
    const paused = await db
      .insert(senderPacing)
      .values({ sender, marketingPausedAt: now, marketingPausedReason: reason })
      .onConflictDoUpdate({
        target: senderPacing.sender,
        set: { marketingPausedAt: now, marketingPausedReason: reason },
        setWhere: isNull(senderPacing.marketingPausedAt),
      })
      .returning({ sender: senderPacing.sender });
    if (!paused.length) continue;
    await tellPaused(ctx, sender, reason, alerts);
  }
}

async function tellPaused({ db, queue, now }: DomainContext, sender: string, reason: string, alerts: PauseAlerts) {
  await logActivity(db, "sending_number_paused", { userId: null, details: { sender, reason }, now });
  if (!alerts.alertEmail) return;
  await createOutboundMessages(
    db,
    queue,
    [
      {
        channel: "email",
        kind: "alert",
        email: alerts.alertEmail,
        subject: `Marketing paused on ${sender}: carriers are filtering it`,
        content: [reason, "", `Resume it when it is fixed: ${alerts.publicBaseUrl}/compliance#sending-numbers`].join(
          "\n",
        ),
        idempotencyKey: `sender-paused:${sender}:${now.getTime()}`,
      },
    ],
    now,
  );
}
