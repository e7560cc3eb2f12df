// Florida's and Oklahoma's limit on marketing texts (issue 29 item 1): at most `per24Hours` to one number in any
// 24 hours (Fla. Stat. §501.059(8)(a), Okla. Stat. tit. 15, §775C.4). Every marketing text of the seller counts as
// the same subject matter — the strict reading a solar company's texts all fall under. The send consumer holds the
// next one back until the oldest of the last `per24Hours` is 24 hours old; a deferred text is never dropped.
import { sql } from "drizzle-orm";
import type { MessageKind } from "~/db/schema";
import type { StateRule } from "./state-rules";

/**
 * The texts the cap counts and holds: the bulk and automated marketing ones. A rep's own texts in a conversation
 * (individual, reply) are a person answering a lead, and an appointment's texts are informational: neither counts.
 */
export const CAPPED_KINDS = [
  "campaign",
  "broadcast",
  "quick",
  "auto_followup",
] as const satisfies readonly MessageKind[];
const CAPPED: ReadonlySet<MessageKind> = new Set(CAPPED_KINDS);
export const isCappedKind = (kind: MessageKind) => CAPPED.has(kind);

export const CAP_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The earliest moment (ms) a marketing text to a number may go, given when its earlier marketing texts went
 * (`sentAts`, ms, any order, older ones ignored): `now` while fewer than `cap` went in the last 24 hours, else the
 * moment the oldest of the latest `cap` turns 24 hours old.
 */
export function nextUnderCap(sentAts: readonly number[], cap: number, now: number): number {
  const recent = sentAts.filter((at) => at > now - CAP_WINDOW_MS).sort((a, b) => a - b);
  return recent.length < cap ? now : recent[recent.length - cap] + CAP_WINDOW_MS;
}

/** Stored on a deferred message (the Message Center shows it): which rule held it, and its statute. */
export function capNote(rule: Pick<StateRule, "name" | "per24Hours" | "statute">): string {
  return `Deferred: ${rule.name} allows ${rule.per24Hours} marketing texts to one number per 24 hours (${rule.statute})`;
}

/**
 * CAPPED_KINDS as SQL literals, as messages_capped_sent_idx's WHERE spells them (migration 0069): SQLite uses a partial
 * index only for a WHERE that repeats its terms, so these are constants in the text, never bound values.
 */
export const CAPPED_KINDS_LIST = sql.raw(`(${CAPPED_KINDS.map((k) => `'${k}'`).join(", ")})`);

/**
 * A number's capped texts sent after `since` (ms), as the cap counts them: with a condition on the phone, a seek of
 * messages_capped_sent_idx on (phone, sent_at > since), those rows and nothing else. A text another consumer holds in
 * `sending` this very moment is not counted (decision 061). Bare column names: it serves `messages` under any alias,
 * in a statement that reads no other table at its level.
 */
export const cappedSentSince = (since: number) =>
  sql`sent_at IS NOT NULL AND direction = 'outbound' AND channel = 'sms' AND kind IN ${CAPPED_KINDS_LIST}
    AND sent_at > ${since} AND status IN ('sent', 'delivered', 'undelivered')`;
