// The lead webhook's body → leads (issue 26, decision 035). Contact fields are read through the import's own rules
// (`contactRowReader`: the header alias table, a full name split, the field limits, the phone normalised); the
// consent evidence has its own short alias list, read first so none of it lands in a contact field.
import { CONSENT_PURPOSES, type ConsentPurpose } from "~/db/schema/contacts";
import { AppError } from "~/lib/app-error";
import { headerKey } from "./column-aliases";
import { contactRowReader, type ImportRow } from "./csv-import";

/** The most leads one post may carry. */
export const MAX_LEADS_PER_POST = 100;

const CONSENT_ALIASES = {
  source: ["source", "leadsource", "vendor", "leadvendor", "provider", "utmsource"],
  consentText: [
    "consenttext",
    "consent",
    "tcpa",
    "tcpatext",
    "tcpaconsent",
    "tcpaconsenttext",
    "disclosure",
    "disclaimer",
  ],
  sellerName: ["seller", "sellername", "sellernamed", "consentseller", "brand"],
  pageUrl: ["pageurl", "url", "landingpage", "landingpageurl", "sourceurl", "formurl", "referrer"],
  ipAddress: ["ip", "ipaddress", "consentip", "userip", "leadip"],
  consentedAt: ["consentedat", "consenttime", "consenttimestamp", "timestamp", "submittedat", "createdat", "leaddate"],
  // What the consent covered (decision 072): "marketing" (the default) or "informational" (appointment texts only).
  purpose: ["consentpurpose", "purpose", "consenttype", "consentscope"],
} as const;
type ConsentField = keyof typeof CONSENT_ALIASES;
const CONSENT_BY_KEY = new Map<string, ConsentField>(
  (Object.entries(CONSENT_ALIASES) as [ConsentField, readonly string[]][]).flatMap(([f, keys]) =>
    keys.map((k) => [k, f] as const),
  ),
);
const CONSENT_LIMITS: Record<ConsentField, number> = {
  source: 100,
  consentText: 2000,
  sellerName: 200,
  pageUrl: 2000,
  ipAddress: 64,
  consentedAt: 64,
  purpose: 32,
};

export type LeadConsentInput = {
  source: string | null;
  consentText: string | null;
  sellerName: string | null;
  pageUrl: string | null;
  ipAddress: string | null;
  consentedAt: Date | null;
  purpose: ConsentPurpose;
};
/**
 * The lead's owner (decision 044): a user's email under one of these keys. An active user with that email owns the
 * new (or updated) contact; no such user, or no field, leaves it to round-robin assignment on the first reply.
 */
const OWNER_KEYS = new Set(["owner", "owneremail", "salesrep", "salesrepemail", "assignedto", "repemail"]);

export type ParsedLead =
  | { index: number; ok: true; row: ImportRow; consent: LeadConsentInput; ownerEmail: string | null }
  | { index: number; ok: false; errors: string[] };

const text = (v: unknown): string | null =>
  typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : null;

/** One lead object → its contact row (the import's rules) and consent evidence, or its errors ("Lead N: …"). */
export function parseLead(raw: unknown, index: number): ParsedLead {
  const n = index + 1;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    return { index, ok: false, errors: [`Lead ${n}: must be an object of fields`] };
  const header: string[] = [];
  const record: string[] = [];
  const consent: Record<ConsentField, string | null> = {
    source: null,
    consentText: null,
    sellerName: null,
    pageUrl: null,
    ipAddress: null,
    consentedAt: null,
    purpose: null,
  };
  const errors: string[] = [];
  let ownerEmail: string | null = null;
  for (const [key, value] of Object.entries(raw)) {
    const v = text(value);
    if (v === null) continue; // nested objects and nulls: nothing a contact field can hold
    const field = CONSENT_BY_KEY.get(headerKey(key));
    if (OWNER_KEYS.has(headerKey(key))) {
      const t = v.trim().toLowerCase();
      if (t.length > 254) errors.push(`Lead ${n}: ${key} must be at most 254 characters`);
      else ownerEmail = t || null;
    } else if (field) {
      const t = v.trim();
      if (t.length > CONSENT_LIMITS[field])
        errors.push(`Lead ${n}: ${key} must be at most ${CONSENT_LIMITS[field]} characters`);
      else if (t) consent[field] = t;
    } else {
      header.push(key);
      record.push(v);
    }
  }
  let consentedAt: Date | null = null;
  if (consent.consentedAt) {
    const ms = Date.parse(consent.consentedAt);
    if (Number.isNaN(ms)) errors.push(`Lead ${n}: the consent time is not a date (ISO 8601 expected)`);
    else consentedAt = new Date(ms);
  }
  const purpose = (consent.purpose ?? "marketing").toLowerCase();
  if (!(CONSENT_PURPOSES as readonly string[]).includes(purpose))
    errors.push(`Lead ${n}: the consent purpose must be "marketing" or "informational"`);
  if (consent.pageUrl && !/^https?:\/\//i.test(consent.pageUrl))
    errors.push(`Lead ${n}: the page URL must start with http:// or https://`);
  const reader = contactRowReader(header, { requireLastName: false });
  if (!reader) return { index, ok: false, errors: [`Lead ${n}: no name or phone field found`, ...errors] };
  const read = reader(record, n);
  if ("errors" in read) errors.push(...read.errors.map((e) => e.replace(/^Row (\d+):/, "Lead $1:")));
  if (errors.length > 0 || "errors" in read) return { index, ok: false, errors };
  return {
    index,
    ok: true,
    row: read.row,
    consent: { ...consent, consentedAt, purpose: purpose as ConsentPurpose },
    ownerEmail,
  };
}

/**
 * The raw leads of a post: a JSON object (one lead), a JSON array or `{ leads: [...] }` (a batch), or a
 * form-encoded body (one lead, for no-code tools). 400 for unreadable JSON or no leads, 413 past MAX_LEADS_PER_POST,
 * 415 for another content type.
 */
export function leadsFromBody(contentType: string | null, body: Uint8Array): unknown[] {
  const type = (contentType ?? "").toLowerCase();
  const textBody = new TextDecoder().decode(body);
  let leads: unknown[];
  if (/^\s*application\/x-www-form-urlencoded\b/.test(type)) {
    leads = [Object.fromEntries(new URLSearchParams(textBody))];
  } else if (/^\s*application\/json\s*(;.*)?$/.test(type)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(textBody);
    } catch {
      throw new AppError("validation", "Request body must be valid JSON");
    }
    if (Array.isArray(parsed)) leads = parsed;
    else if (parsed && typeof parsed === "object" && Array.isArray((parsed as { leads?: unknown }).leads))
      leads = (parsed as { leads: unknown[] }).leads;
    else if (parsed && typeof parsed === "object") leads = [parsed];
    else throw new AppError("validation", "The body must be a lead object, an array of leads or { leads: [...] }");
  } else {
    throw new AppError(
      "unsupported_media_type",
      "Content-Type must be application/json or application/x-www-form-urlencoded",
    );
  }
  if (leads.length === 0) throw new AppError("validation", "The request holds no leads");
  if (leads.length > MAX_LEADS_PER_POST)
    throw new AppError("payload_too_large", `At most ${MAX_LEADS_PER_POST} leads per request (got ${leads.length})`);
  return leads;
}
