/**
 * Does an inbound text look like another system's automatic reply (an away message, a driving-mode reply, a bot)?
 * Answering those is how two auto-responders ping-pong forever (issue 23): Helio never auto-answers them. Phrases
 * only — the other half of the loop guard, the same text arriving again quickly, is a counter (check-loop-guard).
 */
const AUTOMATED: RegExp[] = [
  /\bauto[- ]?(?:reply|replies|response|responder|generated|matic(?:ally)? (?:reply|response|generated|sent))\b/i,
  /\bautomated (?:message|reply|response|text|system|sms)\b/i,
  /\bthis is an? (?:automated|automatic|auto[- ]?generated)\b/i,
  /\b(?:please )?do ?n[o']t reply\b|\bdo not respond\b|\bno[- ]?reply\b|\breplies (?:to this (?:number|message) )?(?:are|is) not (?:monitored|read)\b/i,
  /\bi'?m driving\b|\bi am driving\b|\bwhile driving\b|\bdriving (?:mode|focus)\b|\bdo not disturb\b/i,
  /\bout of (?:the )?office\b|\baway from (?:my|the) (?:phone|desk|office)\b|\bi(?:'m| am) (?:currently )?away (?:from|until|right now|at the moment)\b|\bon (?:vacation|holiday|leave) until\b/i,
  /\b(?:thank you|thanks) for (?:your|the) (?:message|text|sms)[,.!]? (?:we|i) (?:will|'ll) (?:get back|respond|reply)\b/i,
  /\bmsg ?(?:&|and) ?data rates may apply\b|\breply stop to (?:opt[- ]?out|unsubscribe|cancel|end)\b|\btext stop to\b/i,
];

export function looksAutomated(text: string): boolean {
  const t = text.replace(/[\u2018\u2019]/g, "'");
  return AUTOMATED.some((re) => re.test(t));
}

/** The text reduced for "the same text again": case, spacing and punctuation ignored. */
export function normalizedText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .slice(0, 500);
}
