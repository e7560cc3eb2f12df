import { eq } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { messages, smsKeywordState } from "~/db/schema";
import type { JobQueue } from "~/lib/job-queue";
import { suppressStatements } from "./compliance.server";
import { createOutboundMessages } from "./create-outbound-messages.server";
import { CLASSIFIER_OPT_OUT_CONFIDENCE, CLASSIFIER_REASON, isPlainWordsOptOut, keywordReply } from "./keywords";
import { loadKeywordBrand, loadStopScopeSettings } from "./org-settings.server";
import { keywordWon, newerKeywordWins } from "./sms-keyword-state.server";
import { optOutScope } from "./stop-scope";

/** What the pipeline needs of a classification (the responders' classifier gives it; the pipeline imports no feature). */
export type ClassifierReading = { intent: string; confidence: number; provider?: string | null };

/**
 * Whether the model's reading of a reply is a confident request to stop: `opt_out_like` at or above
 * CLASSIFIER_OPT_OUT_CONFIDENCE from a model. The offline answer is the keyword lexicon, which reads "don't stop
 * texting me" as a stop (the plain-words rules know the negation), so it is never a second opinion.
 */
export function isClassifierOptOut(text: string, c: ClassifierReading | null): boolean {
  if (!c || c.intent !== "opt_out_like" || c.confidence < CLASSIFIER_OPT_OUT_CONFIDENCE) return false;
  if (!c.provider || c.provider === "offline") return false;
  return !isPlainWordsOptOut(text); // the rules already honoured it when it arrived
}

/**
 * The classifier's second opinion acted on: the number is suppressed exactly as by a STOP — the suppression (reason
 * `classifier`, the inbound sid as evidence), the contact flagged, campaigns stopped, unsent messages skipped — and
 * the one confirmation is sent. Like a keyword it applies only when this inbound is newer than the last STOP/START
 * applied to the number (sms_keyword_state), so a later START is never undone by a late task. Idempotent: a
 * redelivered task finds the suppression and sends nothing more.
 */
export async function optOutByClassifier(
  db: Db,
  queue: JobQueue,
  inbound: { id: number; phone: string; contactId: number | null },
  now: Date,
) {
  const msg = await db
    .select({ sid: messages.twilioSid, to: messages.fromAddress })
    .from(messages)
    .where(eq(messages.id, inbound.id))
    .get();
  // What it covers depends on the number the reply reached (decision 072).
  const scope = optOutScope(await loadStopScopeSettings(db), msg?.to ?? null, now);
  const sid = msg?.sid ?? `message:${inbound.id}`;
  const nonce = crypto.randomUUID();
  const won = keywordWon(db, inbound.phone, nonce);
  const [, suppressed] = (await runBatch(db, [
    db
      .insert(smsKeywordState)
      .values({
        address: inbound.phone,
        keyword: "stop",
        messageId: inbound.id,
        messageSid: sid,
        nonce,
        appliedAt: now,
      })
      .onConflictDoUpdate(newerKeywordWins),
    ...suppressStatements(
      db,
      { channel: "sms", address: inbound.phone, reason: CLASSIFIER_REASON, source: sid, scope },
      now,
      won,
    ),
  ])) as (D1Result | undefined)[];
  // The suppression insert changed a row: this reply opted the number out (not already suppressed), so it is answered.
  if ((suppressed?.meta?.changes ?? 0) === 0) return { optedOut: false };
  await createOutboundMessages(
    db,
    queue,
    [
      {
        channel: "sms",
        kind: "compliance",
        phone: inbound.phone,
        contactId: inbound.contactId,
        content: keywordReply("stop", await loadKeywordBrand(db)),
        idempotencyKey: `compliance:stop:${sid}`,
      },
    ],
    now,
  );
  return { optedOut: true };
}
