/**
 * Rules every AI draft obeys, whatever provider wrote it (applied after generation): GSM-7 SMS, length limits,
 * opt-out wording on a first touch, a subject on email, only platform variables with a data source, and no
 * promises a rep could not keep.
 */
import { smsSegments } from "~/messaging/segments";
import { isPlatformVariable } from "~/contacts/variables";

export const OPT_OUT = "Reply STOP to opt out.";
export const SMS_DEFAULT_MAX = 160;
export const SMS_HARD_MAX = 320;

/**
 * Variables the send pipeline fills for every contact (consume-send-batch render + campaign-variables). The others
 * in PLATFORM_VARIABLES are listed for templates but may render blank (promo code, rep, solar figures), so a draft
 * never uses them.
 */
export const SOURCED_VARIABLES = [
  "firstName",
  "lastName",
  "fullName",
  "city",
  "state",
  "company",
  "campaignName",
  "currentYear",
] as const;
const SOURCED = new Set<string>(SOURCED_VARIABLES.filter(isPlatformVariable));

// Spellings models invent for the variables we have.
const ALIASES: Record<string, string> = {
  firstname: "firstName",
  first_name: "firstName",
  name: "firstName",
  customername: "firstName",
  contactname: "firstName",
  lastname: "lastName",
  last_name: "lastName",
  fullname: "fullName",
  full_name: "fullName",
  city: "city",
  state: "state",
  company: "company",
  campaign: "campaignName",
  campaignname: "campaignName",
};

const GSM_REPLACEMENTS: Array<[RegExp, string]> = [
  [/[\u2018\u2019\u201A\u201B\u2032`´]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033]/g, '"'],
  [/[\u2012\u2013\u2014\u2015\u2212]/g, "-"],
  [/\u2026/g, "..."],
  [/[\u00A0\u2000-\u200B\u202F\u205F\u3000]/g, " "],
  [/[\u2022\u00B7]/g, "-"],
];

/** Curly quotes, dashes, ellipses and odd spaces → their GSM-7 look-alikes; anything else outside GSM-7 dropped. */
export function toGsm7(text: string): string {
  let out = text;
  for (const [re, to] of GSM_REPLACEMENTS) out = out.replace(re, to);
  return [...out].filter((c) => c === "\n" || smsSegments(c).encoding === "GSM-7").join("");
}

export function normalizeTypography(text: string): string {
  let out = text;
  for (const [re, to] of GSM_REPLACEMENTS) out = out.replace(re, to);
  return out;
}

/** {{tokens}}: sourced ones kept, known spellings mapped, the rest (and [Placeholders]) removed. */
export function fixVariables(text: string): string {
  return text
    .replace(
      /\{\{\s*([^{}]*?)\s*\}\}|\{\s*([A-Za-z_]+)\s*\}|\[\s*([A-Za-z][A-Za-z _]{1,30})\s*\]/g,
      (_m, a?: string, b?: string, c?: string) => {
        const raw = (a ?? b ?? c ?? "").trim();
        if (SOURCED.has(raw)) return `{{${raw}}}`;
        const alias = ALIASES[raw.replace(/\s+/g, "").toLowerCase()] ?? ALIASES[raw.replace(/\s+/g, "_").toLowerCase()];
        return alias ? `{{${alias}}}` : "";
      },
    )
    .replace(/[ \t]{2,}/g, " ")
    .replace(/ +([,.!?])/g, "$1")
    .replace(/(^|\n) +/g, "$1")
    .replace(/\b(Hi|Hello|Hey),/g, "$1 there,")
    .replace(/\b(Hi|Hello|Hey) there there\b/g, "$1 there");
}

const PROMISES: RegExp[] = [
  /\bguarantee(?:d|s)?\b/i,
  /\b(?:save|saving|savings of|cut your (?:bill|bills) by|lower your (?:bill|bills) by)\s+(?:up to\s+)?(?:\$\s?\d|\d+\s?%)/i,
  /\$\s?\d[\d,]*(?:\.\d+)?\s*(?:in savings|saved|off your bill|per month in savings)/i,
  /\b(?:eliminate|zero out|never pay) (?:your )?(?:electric|power|utility|energy)? ?bills?\b/i,
  /\b(?:free solar|100% free|no cost to you|risk[- ]free)\b/i,
  // The 30% federal homeowner credit (IRC §25D) ended for systems paid for after 2025-12-31 (issue 28): copy that
  // offers it to a homeowner buying now is wrong. A lease or PPA company's own credit is not the homeowner's to claim.
  /\b(?:30\s?%|thirty percent)\s+(?:federal\s+)?(?:solar\s+)?(?:tax\s+)?credit\b/i,
  /\bfederal\s+(?:solar\s+)?(?:tax\s+)?(?:credit|incentive)s?\b/i,
  /\b(?:ITC|25D)\b/,
];

export function makesPromise(text: string): boolean {
  return PROMISES.some((re) => re.test(text));
}

/** Drops each sentence that promises savings a rep could not keep; says something honest instead if nothing is left. */
export function removePromises(text: string): string {
  if (!makesPromise(text)) return text;
  const parts = text.split(/(?<=[.!?])\s+/);
  const kept = parts.filter((s) => !makesPromise(s));
  return kept.length > 0
    ? kept.join(" ")
    : "Many homeowners lower their energy costs with solar; we can look at what it could mean for you.";
}

const hasOptOut = (text: string) => /\breply\s+stop\b/i.test(text);

/** Fits an SMS into `max` GSM units, cutting whole sentences first, then words, and keeps the opt-out line. */
function fitSms(body: string, max: number, optOut: boolean): string {
  const suffix = optOut ? ` ${OPT_OUT}` : "";
  const units = (s: string) => smsSegments(s).units;
  let text = body.trim();
  if (units(text + suffix) <= max) return (text + suffix).trim();
  const sentences = text.split(/(?<=[.!?])\s+/);
  while (sentences.length > 1 && units(sentences.join(" ") + suffix) > max) sentences.pop();
  text = sentences.join(" ");
  if (units(text + suffix) > max) {
    const words = text.split(/\s+/);
    while (words.length > 1 && units(words.join(" ") + "..." + suffix) > max) words.pop();
    text = words.join(" ").replace(/[,;:-]+$/, "") + "...";
    // One giant "word": hard cut.
    while (units(text + suffix) > max) text = text.slice(0, -1);
  }
  return (text + suffix).trim();
}

export type DraftRuleOptions = {
  messageType: "sms" | "email";
  /** Step 1 of a sequence, or a first message to a contact: SMS carries the opt-out line. */
  firstTouch: boolean;
  /** SMS limit; default 160, never above 320. */
  maxLength?: number;
  /** Keep characters outside GSM-7 (emoji…) when the user asked for them. */
  allowUnicode?: boolean;
  /** Used when an email draft came back without a subject. */
  fallbackSubject?: string;
  /**
   * Texts a contact detail may come from (the responder's written answer, the organisation's settings, the user's
   * own brief). Any URL, email address or phone number in the draft that none of them contains is reported in
   * `foreign`, and the caller must not send the draft (issue 23: AI output is data, never instructions).
   */
  allowedSources?: readonly (string | null | undefined)[];
};

/** `foreign`: contact details the draft invented (empty or absent = none; only checked with `allowedSources`). */
export type Draft = { content: string; subject: string | null; foreign?: string[] };

// Contact details a draft could smuggle to a homeowner. Emails first (their domain would read as a URL), then URLs
// and bare domains, then phone-number-shaped digit runs (7–15 digits, spaces, dots, dashes, brackets between).
const EMAIL_RE = /[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;
// Any dotted name ending in 2+ letters counts as a domain: a false alarm only costs the written answer.
const URL_RE =
  /\b(?:https?:\/\/|www\.)[^\s<>"']+|\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,24}\b(?:\/[^\s<>"']*)?/gi;
const PHONE_RE = /\+?\d[\d\s().-]{5,}\d/g;

const hostOf = (url: string) =>
  url
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/^www\./, "")
    .replace(/[/?#:].*$/, "")
    .replace(/[.,;!)]+$/, "");

/** The URLs (by host), email addresses and phone numbers (by their last 10 digits) in a text. */
export function contactDetails(text: string): { urls: string[]; emails: string[]; phones: string[] } {
  const emails = [...text.matchAll(EMAIL_RE)].map((m) => m[0].toLowerCase().replace(/[.]+$/, ""));
  const rest = text.replace(EMAIL_RE, " ");
  const urls = [...rest.matchAll(URL_RE)].map((m) => hostOf(m[0])).filter(Boolean);
  const phones = [...rest.replace(URL_RE, " ").matchAll(PHONE_RE)]
    .map((m) => m[0].replace(/\D/g, ""))
    .filter((d) => d.length >= 7 && d.length <= 15)
    .map((d) => d.slice(-10));
  return { urls, emails, phones };
}

/** Contact details in `draft` that none of `allowed` contains: what a model was told by someone else. */
export function foreignContactDetails(draft: string, allowed: readonly (string | null | undefined)[]): string[] {
  const ok = contactDetails(allowed.filter(Boolean).join("\n"));
  const found = contactDetails(draft);
  return [
    ...found.urls.filter((u) => !ok.urls.includes(u)),
    ...found.emails.filter((e) => !ok.emails.includes(e)),
    ...found.phones.filter((p) => !ok.phones.includes(p)),
  ];
}

export function enforceDraftRules(draft: { content: string; subject?: string | null }, opts: DraftRuleOptions): Draft {
  const ruled = applyDraftRules(draft, opts);
  if (!opts.allowedSources) return ruled;
  return {
    ...ruled,
    foreign: [...new Set(foreignContactDetails(`${ruled.subject ?? ""}\n${ruled.content}`, opts.allowedSources))],
  };
}

function applyDraftRules(draft: { content: string; subject?: string | null }, opts: DraftRuleOptions): Draft {
  let content = removePromises(fixVariables(normalizeTypography(draft.content))).trim();
  if (opts.messageType === "sms") {
    // SMS bodies are one paragraph; strip a model's "STOP" line to place our own wording at the end.
    content = content.replace(/\s*\n+\s*/g, " ");
    if (!opts.allowUnicode) content = toGsm7(content);
    const optOut = opts.firstTouch || hasOptOut(content);
    content = content
      .replace(/\s*(?:reply|text)\s+stop\b[^.!?]*[.!?]?/gi, " ")
      .replace(/\s{2,}/g, " ")
      .trim();
    const max = Math.min(SMS_HARD_MAX, Math.max(40, opts.maxLength ?? SMS_DEFAULT_MAX));
    return {
      content: fitSms(content || "Hi {{firstName}}, quick question about solar for your home.", max, optOut),
      subject: null,
    };
  }
  let subject = removePromises(fixVariables(normalizeTypography(draft.subject ?? "")))
    .replace(/\s+/g, " ")
    .trim();
  if (!subject) subject = opts.fallbackSubject?.trim() || "A quick note about solar for your home";
  if (subject.length > 100) subject = subject.slice(0, 97).replace(/\s+\S*$/, "") + "...";
  return { content: content.replace(/\n{3,}/g, "\n\n"), subject };
}
