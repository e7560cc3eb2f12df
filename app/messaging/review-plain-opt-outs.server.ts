import { sql } from "drizzle-orm";
import { activityRow } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { activityLog } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { unsuppressStatements } from "./compliance.server";
import { REVIEWABLE_OPT_OUT_REASONS } from "./keywords";

export const PLAIN_OPT_OUTS_SHOWN = 50;
export type PlainWordsOptOut = { id: number; phone: string; at: string; words: string | null; reason: string };
const REVIEWABLE = sql.join(
  REVIEWABLE_OPT_OUT_REASONS.map((r) => sql`${r}`),
  sql`, `,
);

/**
 * The opt-outs Helio understood from plain words, newest first, each with the text that caused it: a wrong call
 * ("don't stop, I'm interested" read as a stop) can be seen and undone. Through suppressions_reason_created_at_idx and
 * the inbound message's sid (its unique index).
 */
export const plainWordsOptOutsSql = () => sql`
    SELECT s.id, s.address, s.created_at, s.reason, m.content FROM suppressions s
    LEFT JOIN messages m ON m.twilio_sid = s.source AND m.direction = 'inbound'
    WHERE s.reason IN (${REVIEWABLE}) ORDER BY s.created_at DESC, s.id DESC LIMIT ${PLAIN_OPT_OUTS_SHOWN}`;

export async function listPlainWordsOptOuts(db: Db): Promise<PlainWordsOptOut[]> {
  const rows = await db.all<{
    id: number;
    address: string;
    created_at: number;
    reason: string;
    content: string | null;
  }>(plainWordsOptOutsSql());
  return rows.map((r) => ({
    id: r.id,
    phone: r.address,
    at: new Date(r.created_at).toISOString(),
    words: r.content,
    reason: r.reason,
  }));
}

/**
 * A superuser undoes a plain-words opt-out with a note: the number is subscribed again (as after START) and the
 * activity log keeps who, why and the words that caused it. Only plain-words suppressions can be undone here —
 * a STOP keyword or a carrier block is the homeowner's own explicit word.
 */
export async function undoPlainWordsOptOut(
  db: Db,
  id: number,
  note: string,
  actor: { userId: number; ipAddress: string | null },
  now: Date,
) {
  const row = await db.get<{ address: string; source: string | null }>(
    sql`SELECT address, source FROM suppressions WHERE id = ${id} AND channel = 'sms' AND reason IN (${REVIEWABLE})`,
  );
  if (!row) throw new AppError("not_found", "That opt-out is no longer on the list");
  await runBatch(db, [
    ...unsuppressStatements(db, "sms", row.address, now),
    db.insert(activityLog).values(
      activityRow("undo_opt_out", {
        userId: actor.userId,
        ipAddress: actor.ipAddress,
        details: { phone: row.address, note, inboundSid: row.source },
        now,
      }),
    ),
  ]);
}
