import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { smsKeywordState } from "~/db/schema";

// The last STOP/START applied to a number (receive-inbound, opt-out-by-classifier): a newer message replaces it,
// an older one (a replay, a late task) does not; the winner's nonce tells the opt-out statements in the same batch
// that this request won.

/** ON CONFLICT(address): the keyword of the newer message (by messages.id, i.e. first arrival) wins. */
export const newerKeywordWins = {
  target: smsKeywordState.address,
  set: {
    keyword: sql`excluded.keyword`,
    messageId: sql`excluded.message_id`,
    messageSid: sql`excluded.message_sid`,
    nonce: sql`excluded.nonce`,
    appliedAt: sql`excluded.applied_at`,
  },
  setWhere: sql`excluded.message_id > ${smsKeywordState.messageId}`,
};

/** True inside the batch once this request's keyword was recorded for the number. */
export const keywordWon = (db: Db, phone: string, nonce: string) =>
  sql`EXISTS ${db
    .select({ one: sql`1` })
    .from(smsKeywordState)
    .where(and(eq(smsKeywordState.address, phone), eq(smsKeywordState.nonce, nonce)))}`;
