import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { logActivity } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { messages, suppressions } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { unsuppressStatements } from "./compliance.server";
import { REVIEWABLE_OPT_OUT_REASONS } from "./keywords";

export const PLAIN_OPT_OUTS_SHOWN = 50;
export type PlainWordsOptOut = { id: number; phone: string; at: string; words: string | null; reason: string };
const s = alias(suppressions, "s");
const m = alias(messages, "m");

/**
 * The opt-outs Helio understood from plain words, newest first, each with the text that caused it: a wrong call
 * ("don't stop, I'm interested" read as a stop) can be seen and undone. Through suppressions_reason_created_at_idx and
 * the inbound message's sid (its unique index).
 */
export const plainWordsOptOuts = (db: Db) =>
  db
    .select({ id: s.id, address: s.address, createdAt: s.createdAt, reason: s.reason, content: m.content })
    .from(s)
    .leftJoin(m, and(eq(m.twilioSid, s.source), sql`${m.direction} = 'inbound'`))
    .where(inArray(s.reason, [...REVIEWABLE_OPT_OUT_REASONS]))
    .orderBy(desc(s.createdAt), desc(s.id))
    .limit(PLAIN_OPT_OUTS_SHOWN);

export async function listPlainWordsOptOuts(db: Db): Promise<PlainWordsOptOut[]> {
  const rows = await plainWordsOptOuts(db);
  return rows.map((r) => ({
    id: r.id,
    phone: r.address,
    at: r.createdAt.toISOString(),
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
  const row = await db
    .select({ address: suppressions.address, source: suppressions.source })
    .from(suppressions)
    .where(
      and(
        eq(suppressions.id, id),
        eq(suppressions.channel, "sms"),
        inArray(suppressions.reason, [...REVIEWABLE_OPT_OUT_REASONS]),
      ),
    )
    .get();
  if (!row) throw new AppError("not_found", "That opt-out is no longer on the list");
  await runBatch(db, [
    ...unsuppressStatements(db, "sms", row.address, now),
    logActivity(db, "undo_opt_out", {
      ...actor,
      details: { phone: row.address, note, inboundSid: row.source },
      now,
    }),
  ]);
}
