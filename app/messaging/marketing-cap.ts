// Florida's and Oklahoma's limit on marketing texts (issue 29 item 1): at most `per24Hours` to one number in any
// 24 hours (Fla. Stat. §501.059(8)(a), Okla. Stat. tit. 15, §775C.4). Every marketing text of the seller counts as
// the same subject matter — the strict reading a solar company's texts all fall under. The send consumer holds the
// next one back until the oldest of the last `per24Hours` is 24 hours old; a deferred text is never dropped.
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
