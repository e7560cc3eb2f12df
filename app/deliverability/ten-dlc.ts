// 10DLC readiness (issue 29 item 5, decision 067). US carriers carry application texts from a local ("10-digit long
// code") number only under a registered brand and campaign (The Campaign Registry, through Twilio); unregistered
// traffic is blocked (Twilio 30034). The registration is text a reviewer reads: this drafts it from what Helio really
// sends and checks it against the reasons reviewers publish for rejecting one. Pure: the loader reads the rows.
import { findLinkShortener } from "~/messaging/link-shorteners";
import { hasOptOutWording, HELP_KEYWORDS, keywordReply, OPT_IN_KEYWORDS, OPT_OUT_KEYWORDS } from "~/messaging/keywords";
import type { A2pService, TollFreeVerification } from "~/messaging/providers/provider";

/** Twilio's limits on the campaign's fields (UsAppToPerson): description and message flow 40–4,096 / 40–2,048. */
export const DESCRIPTION_MIN = 40;
export const MESSAGE_FLOW_MIN = 40;
export const MESSAGE_FLOW_MAX = 2048;
export const SAMPLE_MIN = 20;
export const SAMPLE_MAX = 1024;
/** Twilio takes two to five samples. */
export const SAMPLES_MIN = 2;
export const SAMPLES_MAX = 5;

/** The organisation setting that overrides the drafted opt-in description (the campaign's "message flow"). */
export const OPT_IN_DESCRIPTION_KEY = "optInDescription";

export type TenDlcInput = {
  company?: string;
  companyPhone?: string;
  website?: string;
  /** The superuser's own opt-in description, when they wrote one. */
  optInDescription?: string;
  /** The newest consent wording a lead source sent with a lead (lead_consents), if any. */
  consentText?: string | null;
  /** SMS copy Helio really sends, newest first: templates and campaign steps, with their variables filled in. */
  samples: { source: string; text: string }[];
  /** Appointment texts go out (confirmations, reminders): informational messages beside the marketing ones. */
  sendsAppointmentTexts: boolean;
};

export type TenDlcDraft = {
  brand: { displayName: string; website: string; phone: string; vertical: "ENERGY" };
  campaign: {
    useCase: "MARKETING" | "MIXED";
    description: string;
    messageFlow: string;
    /** Whether the flow is the superuser's own text (else drafted). */
    messageFlowWritten: boolean;
    samples: { source: string; text: string }[];
    hasEmbeddedLinks: boolean;
    hasEmbeddedPhone: boolean;
    optInKeywords: readonly string[];
    optOutKeywords: readonly string[];
    helpKeywords: readonly string[];
    optInMessage: string;
    optOutMessage: string;
    helpMessage: string;
  };
};

export type TenDlcFinding = { level: "error" | "warning"; field: string; message: string };

const LINK_RE = /\bhttps?:\/\/\S+|\b[a-z0-9-]+\.(?:com|net|org|io|co|us|solar|energy)(?:\/\S*)?\b/i;
const PHONE_RE = /(?:\+?1[\s.-]?)?\(?\b\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}\b/;
const CONSENT_RE = /\b(consent|opt[\s-]?in|agree|check(?:box|s|ing)?|sign(?:s|ed)? up|request(?:s|ed)?)\b/i;
const RATES_RE = /\b(msg|message)\s*(?:&|and)\s*data\s+rates/i;
const FREQUENCY_RE = /\bfrequency\b|\bvaries\b|\bmessages? per\b/i;

/** The campaign as Twilio's UsAppToPerson form asks for it, from the organisation's settings and its real copy. */
export function draftRegistration(input: TenDlcInput): TenDlcDraft {
  const company = input.company?.trim() ?? "";
  const website = input.website?.trim() ?? "";
  const name = company || "[your company]";
  const brand = { company: company || undefined, companyPhone: input.companyPhone?.trim() || undefined };
  const written = input.optInDescription?.trim() ?? "";
  const consent = input.consentText?.trim();
  const drafted =
    `Homeowners request a solar quote from ${name}${website ? ` on ${website}` : ""} or through our lead partners, ` +
    `and opt in by checking an unchecked box that is not required to submit the form` +
    (consent ? `, which reads: "${consent.slice(0, 600)}"` : "") +
    `. The form says the message frequency varies, msg & data rates may apply, and to reply STOP to opt out or HELP ` +
    `for help; it links our privacy policy and terms${website ? ` on ${website}` : ""}.`;
  const samples = pickSamples(input.samples, name);
  return {
    brand: { displayName: name, website, phone: input.companyPhone?.trim() ?? "", vertical: "ENERGY" },
    campaign: {
      useCase: input.sendsAppointmentTexts ? "MIXED" : "MARKETING",
      description:
        `${name} texts homeowners who asked for a solar quote: answers to their questions, quote and savings ` +
        `follow-ups, promotions` +
        (input.sendsAppointmentTexts ? `, and appointment confirmations and reminders` : "") +
        `. Messages come from named sales reps; homeowners can reply, and STOP ends all messages.`,
      messageFlow: written || drafted,
      messageFlowWritten: Boolean(written),
      samples,
      hasEmbeddedLinks: samples.some((s) => LINK_RE.test(s.text)),
      hasEmbeddedPhone: samples.some((s) => PHONE_RE.test(s.text)),
      optInKeywords: OPT_IN_KEYWORDS,
      optOutKeywords: OPT_OUT_KEYWORDS,
      helpKeywords: HELP_KEYWORDS,
      optInMessage: keywordReply("start", brand),
      optOutMessage: keywordReply("stop", brand),
      helpMessage: keywordReply("help", brand),
    },
  };
}

const OPT_OUT_ADDED = " (opt-out line added)";

/**
 * Up to five distinct samples, most recent copy first. Reviewers reject a campaign whose samples never show how to
 * opt out: when none of the real copy does, the first sample carries the opt-out line Helio would add.
 */
function pickSamples(all: TenDlcInput["samples"], name: string) {
  const seen = new Set<string>();
  const picked: TenDlcInput["samples"] = [];
  for (const s of all) {
    const text = s.text.trim().replace(/\s+/g, " ");
    if (!text || seen.has(text)) continue;
    seen.add(text);
    picked.push({ source: s.source, text });
    if (picked.length === SAMPLES_MAX) break;
  }
  if (picked.length && !picked.some((s) => hasOptOutWording(s.text))) {
    const first = picked[0]!;
    const brand = first.text.toLowerCase().includes(name.toLowerCase()) ? "" : `${name}: `;
    picked[0] = {
      source: `${first.source}${OPT_OUT_ADDED}`,
      text: `${brand}${first.text} Reply STOP to opt out.`,
    };
  }
  return picked;
}

/**
 * The draft against the rejection reasons carriers and Twilio publish: missing brand, too-short description or flow,
 * a flow that does not say how consent is given, fewer than two samples, samples without opt-out language or the
 * brand's name, public link shorteners.
 */
export function checkRegistration(draft: TenDlcDraft, company: string | undefined): TenDlcFinding[] {
  const out: TenDlcFinding[] = [];
  const c = draft.campaign;
  if (!company?.trim())
    out.push({
      level: "error",
      field: "brand",
      message: "No company name: set it under Organisation — reviewers reject samples that do not name the business.",
    });
  if (!draft.brand.website)
    out.push({
      level: "warning",
      field: "brand",
      message: "No website: reviewers check that the opt-in form and privacy policy exist; set it under Organisation.",
    });
  if (c.description.length < DESCRIPTION_MIN)
    out.push({
      level: "error",
      field: "description",
      message: `The description needs at least ${DESCRIPTION_MIN} characters.`,
    });
  if (c.messageFlow.length < MESSAGE_FLOW_MIN || c.messageFlow.length > MESSAGE_FLOW_MAX)
    out.push({
      level: "error",
      field: "messageFlow",
      message: `The opt-in description needs ${MESSAGE_FLOW_MIN} to ${MESSAGE_FLOW_MAX} characters.`,
    });
  if (!CONSENT_RE.test(c.messageFlow))
    out.push({
      level: "error",
      field: "messageFlow",
      message: "The opt-in description does not say how homeowners give consent (a form, a checkbox, a keyword).",
    });
  if (!RATES_RE.test(c.messageFlow) || !FREQUENCY_RE.test(c.messageFlow) || !/\bSTOP\b/.test(c.messageFlow))
    out.push({
      level: "warning",
      field: "messageFlow",
      message:
        "The opt-in description should say what the form discloses: message frequency, “Msg & data rates may apply” and STOP to opt out.",
    });
  // Reviewers reject samples that never show how to opt out. The draft adds the line when the real copy lacks it; the
  // copy that goes out still lacks it, so it is said.
  if (c.samples.length && !c.samples.some((s) => hasOptOutWording(s.text)))
    out.push({
      level: "error",
      field: "samples",
      message: "No sample says how to opt out: add “Reply STOP to opt out.” to at least one of them.",
    });
  else if (c.samples.some((s) => s.source.endsWith(OPT_OUT_ADDED)))
    out.push({
      level: "warning",
      field: "samples",
      message:
        "None of your texts says how to opt out: the draft added “Reply STOP to opt out.” to sample 1 — add it to your templates and campaign steps too.",
    });
  if (c.samples.length < SAMPLES_MIN)
    out.push({
      level: "error",
      field: "samples",
      message: `Twilio needs at least ${SAMPLES_MIN} sample messages: write SMS templates or campaign steps first.`,
    });
  c.samples.forEach((s, i) => {
    const n = `Sample ${i + 1}`;
    if (s.text.length < SAMPLE_MIN || s.text.length > SAMPLE_MAX)
      out.push({
        level: "error",
        field: "samples",
        message: `${n} must have ${SAMPLE_MIN} to ${SAMPLE_MAX} characters.`,
      });
    const shortener = findLinkShortener(s.text);
    if (shortener)
      out.push({
        level: "error",
        field: "samples",
        message: `${n} links through ${shortener}: carriers reject public link shorteners; use your own domain.`,
      });
    if (company?.trim() && !s.text.toLowerCase().includes(company.trim().toLowerCase()))
      out.push({
        level: "warning",
        field: "samples",
        message: `${n} does not name ${company.trim()}: reviewers look for the brand in the messages.`,
      });
  });
  return out;
}

/**
 * A US local number ("+1" and ten digits, not toll-free): the kind 10DLC registration covers. Toll-free numbers are
 * verified instead (Twilio 30032), Messaging Services carry their own campaign.
 */
const TOLL_FREE = new Set(["800", "833", "844", "855", "866", "877", "888"]);
export function isTenDlcNumber(sender: string): boolean {
  const m = /^\+1(\d{3})\d{7}$/.exec(sender);
  return Boolean(m && !TOLL_FREE.has(m[1]!));
}

/** A US toll-free number: carriers carry its texts only once its toll-free verification is approved (Twilio 30032). */
export function isTollFreeNumber(sender: string): boolean {
  const m = /^\+1(\d{3})\d{7}$/.exec(sender);
  return Boolean(m && TOLL_FREE.has(m[1]!));
}

/** Twilio's toll-free verification statuses → ours: only TWILIO_APPROVED carries traffic. */
const TOLL_FREE_STATUS: Record<string, SenderRegistration["status"]> = {
  TWILIO_APPROVED: "VERIFIED",
  IN_REVIEW: "IN_PROGRESS",
  PENDING_REVIEW: "IN_PROGRESS",
  TWILIO_REJECTED: "FAILED",
};

/** A sender's registration as Helio keeps it: VERIFIED is the only status carriers carry traffic under. */
export type SenderRegistration = {
  sender: string;
  status: "VERIFIED" | "IN_PROGRESS" | "PENDING" | "FAILED" | "NONE";
  serviceSid: string | null;
  campaignSid: string | null;
  useCase: string | null;
};

const RANK: Record<SenderRegistration["status"], number> = {
  VERIFIED: 4,
  IN_PROGRESS: 3,
  PENDING: 2,
  FAILED: 1,
  NONE: 0,
};
const statusOf = (s: string): SenderRegistration["status"] =>
  s in RANK ? (s as SenderRegistration["status"]) : s ? "PENDING" : "NONE";

/**
 * Each number and each Messaging Service under its best campaign (a verified one wins), plus the senders Helio uses
 * that no service holds: those have no campaign at all.
 */
export function registrationsFrom(
  services: readonly A2pService[],
  senders: readonly string[],
  tollFree: readonly TollFreeVerification[] = [],
): SenderRegistration[] {
  const best = new Map<string, SenderRegistration>();
  const offer = (r: SenderRegistration) => {
    const had = best.get(r.sender);
    if (!had || RANK[r.status] > RANK[had.status]) best.set(r.sender, r);
  };
  for (const s of services) {
    const top = [...s.campaigns].sort((a, b) => RANK[statusOf(b.status)] - RANK[statusOf(a.status)])[0];
    const reg = (sender: string): SenderRegistration => ({
      sender,
      status: top ? statusOf(top.status) : "NONE",
      serviceSid: s.sid,
      campaignSid: top?.sid ?? null,
      useCase: top?.useCase ?? null,
    });
    offer(reg(s.sid));
    for (const n of s.numbers) offer(reg(n));
  }
  // A toll-free number's verification (decision 067's addendum) stands in for a campaign; the best one wins.
  for (const v of tollFree)
    offer({
      sender: v.number,
      status: TOLL_FREE_STATUS[v.status] ?? "PENDING",
      serviceSid: null,
      campaignSid: v.sid || null,
      useCase: "TOLL_FREE",
    });
  for (const sender of senders)
    if (!best.has(sender)) offer({ sender, status: "NONE", serviceSid: null, campaignSid: null, useCase: null });
  return [...best.values()].sort((a, b) => a.sender.localeCompare(b.sender));
}

/** The warning a send from `sender` carries, or null: a 10DLC number or service without a verified campaign. */
export function unregisteredSenderWarning(
  sender: string,
  registration: Pick<SenderRegistration, "status"> | null,
  checked: boolean,
): string | null {
  if (registration?.status === "VERIFIED") return null;
  if (isTollFreeNumber(sender)) {
    const state = !checked
      ? "its toll-free verification has not been checked yet"
      : registration && registration.status !== "NONE"
        ? `its toll-free verification is ${registration.status.toLowerCase().replace("_", " ")}, not approved`
        : "it has no toll-free verification";
    return `${sender}: ${state}. US carriers block texts from unverified toll-free numbers (Twilio 30032) — see Compliance → 10DLC.`;
  }
  if (!isTenDlcNumber(sender) && !/^MG[0-9a-fA-F]{32}$/.test(sender)) return null;
  const state = !checked
    ? "its 10DLC registration has not been checked yet"
    : registration && registration.status !== "NONE"
      ? `its 10DLC campaign is ${registration.status.toLowerCase().replace("_", " ")}, not verified`
      : "it has no registered 10DLC campaign";
  return `${sender}: ${state}. US carriers block unregistered texts from local numbers (Twilio 30034) — see Compliance → 10DLC.`;
}
