// Inbound SMS keyword handling (opt-out / opt-in / help), after Twilio's rule that the whole body must be one
// keyword — but read generously, as compliance wants: case, spacing and any punctuation or symbols are ignored
// ("STOP,", "*stop*", "(Stop)", "opt.out", "OPT_OUT" all opt out); extra words are not ("stop please").

export const OPT_OUT_KEYWORDS = [
  "STOP",
  "STOPALL",
  "UNSUBSCRIBE",
  "CANCEL",
  "END",
  "QUIT",
  "REVOKE",
  "OPTOUT",
  "OPT OUT",
  "OPT-OUT",
] as const;
export const OPT_IN_KEYWORDS = ["START", "UNSTOP", "YES"] as const;
export const HELP_KEYWORDS = ["HELP", "INFO"] as const;

export type InboundKeyword = "stop" | "start" | "help";

// Plain-word opt-outs (issue 24): since April 2025 the FCC counts any reasonable way of saying it as a revocation.
// Each rule names a request to stop contact; a negation just before it ("don't stop texting me") is not one.
const PLAIN_OPT_OUTS: RegExp[] = [
  /\b(?:stop|quit|cease)\s+(?:texting|txting|messaging|contacting|sending|calling|bothering|spamming)\b/,
  /\b(?:remove|take|delete|drop)\s+(?:me|my\s+(?:number|phone|info|information|name))\s+(?:from|off)\b/,
  /\b(?:unsubscribe|opt)\s+me\b/,
  /\b(?:do\s+not|don'?t|dont|never)\s+(?:text|txt|message|contact|call)\s+(?:me|this\s+number|my\s+number)\b/,
  /\bno\s+more\s+(?:texts|text\s+messages|messages|txts)\b/,
  /\blose\s+my\s+number\b/,
  /\bleave\s+me\s+alone\b/,
];
const NEGATED_OPT_OUT = /\b(?:don'?t|dont|do\s+not|never|not)\s+(?:stop|quit|cease|remove|unsubscribe)\b/;

/**
 * Whether an inbound text asks, in plain words, to stop being texted ("Stop texting me", "remove me from your list
 * please"). The one-word keywords are classifyInbound's; this reads sentences, conservatively.
 */
export function isPlainWordsOptOut(body: string): boolean {
  const text = ` ${normalizeKeyword(body ?? "")
    .toLowerCase()
    .replace(/[’‘]/g, "'")} `;
  if (NEGATED_OPT_OUT.test(text)) return false;
  return PLAIN_OPT_OUTS.some((re) => re.test(text));
}

/** The suppression reason of an opt-out understood from plain words: listed on /compliance for a superuser's review. */
export const PLAIN_WORDS_REASON = "plain words";
/** The suppression reason of an opt-out the AI classifier recognised (the second opinion): reviewed the same way. */
export const CLASSIFIER_REASON = "classifier";
/** The opt-outs a superuser may review and undo on /compliance (not STOP keywords nor carrier blocks). */
export const REVIEWABLE_OPT_OUT_REASONS = [PLAIN_WORDS_REASON, CLASSIFIER_REASON] as const;
/** How sure the model must be (0–100) before its `opt_out_like` suppresses a number. */
export const CLASSIFIER_OPT_OUT_CONFIDENCE = 90;

// "Reply STOP to opt out", "Text STOP to unsubscribe", "opt-out", "unsubscribe", "Stop2End"…
const OPT_OUT_WORDING_RE = /\b(stop|opt[\s-]?out|unsubscribe|stop2end|end to quit)\b/i;

/** Whether a text tells the homeowner how to opt out (the pre-send check and the 10DLC samples ask it). */
export function hasOptOutWording(text: string): boolean {
  return OPT_OUT_WORDING_RE.test(text);
}

/** Who the homeowner hears from: the business set in Organisation, as CTIA wants the brand they know. */
export type KeywordBrand = { company?: string; companyPhone?: string };

/**
 * The one automatic answer to STOP, START and HELP. It names the organisation's business (never "Helio", which
 * the homeowner has never heard of) and, for HELP, its phone; without them it still reads as a whole sentence.
 */
export function keywordReply(keyword: InboundKeyword, brand: KeywordBrand): string {
  const company = brand.company?.trim();
  const from = company || "us";
  if (keyword === "stop")
    return `You have been unsubscribed and will receive no more messages from ${from}. Reply START to resubscribe.`;
  if (keyword === "start")
    return `You have been resubscribed to messages from ${from}. Reply HELP for help or STOP to opt out.`;
  const phone = brand.companyPhone?.trim();
  return `${company ? `${company}: solar` : "Solar"} sales updates.${phone ? ` Help: ${phone}.` : ""} Reply STOP to opt out, START to resubscribe. Msg & data rates may apply.`;
}

// Letters and digits only: punctuation and spacing never change the meaning, digits do ("stop 2" is not STOP).
const lettersOnly = (s: string) => s.replace(/[^A-Z0-9]/g, "");
const KEYWORD_CLASS = new Map<string, InboundKeyword>([
  ...OPT_OUT_KEYWORDS.map((k) => [lettersOnly(k), "stop"] as const),
  ...OPT_IN_KEYWORDS.map((k) => [lettersOnly(k), "start"] as const),
  ...HELP_KEYWORDS.map((k) => [lettersOnly(k), "help"] as const),
]);

// Straight and typographic quotes that phones and users wrap around a keyword.
const QUOTES = "\"'`“”‘’„«»";
const EDGE_RE = new RegExp(`^[\\s${QUOTES}]+|[\\s${QUOTES}.!?]+$`, "gu");
// Zero-width characters some keyboards insert; they are invisible to the sender.
const INVISIBLE_RE = /[\u200B-\u200D\u2060\uFEFF]/g;

/** Canonical form for comparison: NFKC, invisible chars removed, edges stripped, inner whitespace collapsed, upper case. */
export function normalizeKeyword(body: string): string {
  // NFKC folds full-width letters ("ＳＴＯＰ") to ASCII; erring towards recognising an opt-out is the compliant side.
  let s = body.normalize("NFKC").replace(INVISIBLE_RE, "");
  s = s.replace(EDGE_RE, "");
  return s.replace(/\s+/g, " ").toUpperCase();
}

/**
 * Classify an inbound message. Twilio's OptOutType webhook parameter (STOP/START/HELP), when present and
 * recognised, wins: Twilio has already acted on it (including any Advanced Opt-Out custom keywords).
 */
export function classifyInbound(body: string, optOutType?: string | null): InboundKeyword | null {
  const type = optOutType?.trim().toUpperCase();
  if (type === "STOP") return "stop";
  if (type === "START") return "start";
  if (type === "HELP") return "help";
  return KEYWORD_CLASS.get(lettersOnly(normalizeKeyword(body ?? ""))) ?? null;
}
