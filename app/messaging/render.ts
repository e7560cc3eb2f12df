// Template rendering: {{name}} platform variables (SPEC §3) and the #NAME# quick-send placeholders (SPEC §5).
import { isPlatformVariable } from "~/contacts/variables";

// A token is "{{", optional spaces, an identifier, optional spaces, an optional "|fallback", "}}". Names are
// case-sensitive (camelCase as listed in PLATFORM_VARIABLES) so "{{FirstName}}" is reported unknown rather than
// guessed at. `{{firstName|there}}` renders "there" when the contact has no first name.
const TOKEN_RE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\|([^{}|]*))?\}\}/g;

export const DEFAULT_RENDER_TIME_ZONE = "America/Los_Angeles";

/** Distinct variable names in {{ name }} tokens, in order of first appearance (a Template's `variables`). */
export function extractVariables(content: string): string[] {
  const seen = new Set<string>();
  for (const m of content.matchAll(TOKEN_RE)) seen.add(m[1]);
  return [...seen];
}

/**
 * Variables used at least once WITHOUT a fallback: a send needs a value for each of these per recipient.
 * `{{firstName|there}}` alone does not make firstName required.
 */
export function requiredVariables(content: string): string[] {
  const seen = new Set<string>();
  for (const m of content.matchAll(TOKEN_RE)) if (m[2] === undefined || m[2].trim() === "") seen.add(m[1]);
  return [...seen];
}

/** Token names that are not platform variables, in order of first appearance. */
export function findUnknownVariables(content: string): string[] {
  return extractVariables(content).filter((name) => !isPlatformVariable(name));
}

export type RenderValues = Record<string, string | null | undefined>;

export interface RenderOptions {
  now?: Date;
  timeZone?: string;
}

export interface RenderResult {
  text: string;
  /** Tokens that are not platform variables; left in the text unchanged. */
  unknown: string[];
  /** Platform variables with no (or a blank) value and no fallback; rendered as "". */
  missing: string[];
}

function present(v: string | null | undefined): v is string {
  return v != null && v.trim() !== "";
}

function validTimeZone(tz: string | undefined): string {
  if (!tz) return DEFAULT_RENDER_TIME_ZONE;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return tz;
  } catch {
    // A bad zone on a contact must not stop a send; fall back to the product default zone.
    return DEFAULT_RENDER_TIME_ZONE;
  }
}

/** currentDate / currentTime / currentYear for `now` in `timeZone`, e.g. "November 21, 2026", "3:05 PM", "2026". */
export function dateTimeValues(
  now: Date,
  timeZone: string,
): { currentDate: string; currentTime: string; currentYear: string } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    hour12: true,
  }).formatToParts(now);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  // Assembled from parts because recent ICU puts a narrow no-break space before AM/PM; SMS wants a plain space.
  return {
    currentDate: `${get("month")} ${get("day")}, ${get("year")}`,
    currentTime: `${get("hour")}:${get("minute")} ${get("dayPeriod").toUpperCase()}`,
    currentYear: get("year"),
  };
}

/**
 * Replace known {{ tokens }} with values. Single pass: a value that itself contains "{{x}}" is not expanded again.
 * fullName falls back to firstName + lastName; the Date/Time variables are computed from `now` unless given.
 */
export function renderTemplate(content: string, values: RenderValues, opts: RenderOptions = {}): RenderResult {
  const names = extractVariables(content);
  const resolved: Record<string, string | null | undefined> = { ...values };

  if (!present(resolved.fullName)) {
    const joined = [values.firstName, values.lastName]
      .filter(present)
      .map((s) => s.trim())
      .join(" ");
    if (joined) resolved.fullName = joined;
  }
  if (!present(resolved.appointmentDateTime) && present(values.appointmentDate) && present(values.appointmentTime)) {
    resolved.appointmentDateTime = `${values.appointmentDate.trim()} at ${values.appointmentTime.trim()}`;
  }
  if (names.some((n) => n === "currentDate" || n === "currentTime" || n === "currentYear")) {
    const computed = dateTimeValues(opts.now ?? new Date(), validTimeZone(opts.timeZone));
    for (const [k, v] of Object.entries(computed)) if (!present(resolved[k])) resolved[k] = v;
  }

  const unknown: string[] = [];
  const missing: string[] = [];
  const required = new Set(requiredVariables(content));
  for (const name of names) {
    if (!isPlatformVariable(name)) unknown.push(name);
    else if (required.has(name) && !present(resolved[name])) missing.push(name);
  }

  const text = content.replace(TOKEN_RE, (token, name: string, fallback: string | undefined) => {
    if (!isPlatformVariable(name)) return token;
    const v = resolved[name];
    return present(v) ? v : (fallback?.trim() ?? "");
  });
  return { text, unknown, missing };
}

export interface QuickSendContact {
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  address?: string | null;
}

/** SPEC §5: the preview uses the first contact, or these defaults when there is none. */
export const QUICK_SEND_PREVIEW_DEFAULTS = {
  firstName: "John",
  lastName: "Doe",
  company: "ABC Corp",
  address: "123 Main St",
} as const;

const QUICK_SEND_RE = /#(FIRST_NAME|LAST_NAME|COMPANY|ADDRESS)#/g;
const QUICK_SEND_FIELD = {
  FIRST_NAME: "firstName",
  LAST_NAME: "lastName",
  COMPANY: "company",
  ADDRESS: "address",
} as const;

/** SPEC §5 quick-send placeholders, replaced per contact with "" when missing (single pass, case-sensitive). */
export function renderQuickSend(content: string, contact: QuickSendContact): string {
  return content.replace(
    QUICK_SEND_RE,
    (_t, key: keyof typeof QUICK_SEND_FIELD) => contact[QUICK_SEND_FIELD[key]] ?? "",
  );
}
