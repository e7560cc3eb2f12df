import { z } from "zod";
import { AppError } from "~/lib/app-error";

// SPEC §5 / §8 / §9.
export const MISSING_INFORMATION = "Missing information";
export const MESSAGE_REQUIRED = "Message Required";
export const PROFILE_NOT_FOUND = "Alert profile not found";
export const BANK_NOT_FOUND = "Keyword bank not found";
export const ALERT_NOT_FOUND = "Alert not found";
export const ALERT_TOASTS = {
  createProfile: "Failed to create alert profile",
  updateProfile: "Failed to update alert profile",
  deleteProfile: "Failed to delete alert profile",
  createBank: "Failed to create keyword bank",
  updateBank: "Failed to update keyword bank",
  deleteBank: "Failed to delete keyword bank",
  testFailed: "Test Failed",
  testFailedText: "Failed to send test alert. Please try again.",
} as const;

export const DEPARTMENTS = ["Solar Sales", "Solar Engineering", "Solar Installation", "Customer Success"] as const;
export const PROFILE_PRIORITIES = ["critical", "high", "medium", "low"] as const;
export const BANK_PRIORITIES = ["high", "medium", "low"] as const;
export const BANK_CATEGORIES = [
  "Lead Qualification",
  "Pricing Concerns",
  "Installation Questions",
  "Savings Inquiry",
  "Objection Handling",
  "Scheduling",
] as const;
/** The phone the SPEC's client stores in contactInfo when none is given. */
export const PLACEHOLDER_PHONE = "+1-555-0100";
export const PRIORITY_RANK: Record<string, number> = { critical: 4, high: 3, medium: 2, low: 1 };

/** Split on commas (and newlines), trimmed, blanks and case-insensitive repeats dropped. */
export function splitKeywords(v: unknown): string[] {
  const items = Array.isArray(v) ? v : typeof v === "string" ? v.split(/[,\n]/) : [];
  const seen = new Set<string>();
  return items
    .filter((s): s is string => typeof s === "string")
    .map((s) => s.trim())
    .filter((s) => s && !seen.has(s.toLowerCase()) && (seen.add(s.toLowerCase()), true));
}

const flag = z.preprocess(
  (v) => (v === "on" || v === "true" || v === "1" ? true : v === "false" || v === "" || v === "0" ? false : v),
  z.boolean(),
);
const keywords = z.preprocess(
  splitKeywords,
  z.array(z.string().max(80, "Keywords must be at most 80 characters")).max(100, "At most 100 keywords"),
);
const optText = (max: number) =>
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.string().trim().max(max, `Must be at most ${max} characters`).optional(),
  );

/** contactInfo: JSON text `{email, phone}` (SPEC §3); a plain email is accepted too. */
export function parseContactInfo(v: unknown): { email: string | null; phone: string | null } {
  let obj: unknown = v;
  if (typeof v === "string") {
    const s = v.trim();
    if (!s) return { email: null, phone: null };
    try {
      obj = JSON.parse(s);
    } catch {
      obj = { email: s };
    }
  }
  const o = (obj && typeof obj === "object" ? obj : {}) as Record<string, unknown>;
  const email = typeof o.email === "string" && o.email.trim() ? o.email.trim() : null;
  if (email && !z.string().max(254).email().safeParse(email).success)
    throw new AppError("validation", "Please enter a valid email address", { field: "email" });
  const phone = typeof o.phone === "string" && o.phone.trim() ? o.phone.trim().slice(0, 40) : null;
  return { email, phone };
}

const profileSchema = z.object({
  name: z.string().trim().max(120, "Name must be at most 120 characters").default(""),
  department: z.enum(DEPARTMENTS).default("Solar Sales"),
  keywords: keywords.default([]),
  contactInfo: z.unknown().optional(),
  email: z.string().max(254, "Please enter a valid email address").optional(),
  phone: z.string().max(40, "Phone must be at most 40 characters").optional(),
  priority: z.enum(PROFILE_PRIORITIES).default("medium"),
  responseTemplate: optText(1600),
  escalationTime: z.coerce
    .number()
    .int("Escalation time must be a whole number")
    .min(1, "Escalation time must be between 1 and 1440 minutes")
    .max(1440, "Escalation time must be between 1 and 1440 minutes")
    .default(15),
  ownerEscalationMinutes: z.coerce
    .number()
    .int("Owner-first time must be a whole number")
    .min(0, "Owner-first time must be between 0 and 1440 minutes")
    .max(1440, "Owner-first time must be between 0 and 1440 minutes")
    .default(15),
  isActive: flag.default(true),
});

export type ProfileInput = {
  name: string;
  department: string;
  keywords: string[];
  contactInfo: string;
  priority: string;
  responseTemplate: string | null;
  escalationTime: number;
  /** Owner first (decision 050): minutes an owned contact's alert waits for a person's answer; 0 = at once to all. */
  ownerEscalationMinutes: number;
  isActive: boolean;
};

function fail(err: z.ZodError): never {
  const i = err.issues[0];
  throw new AppError("validation", i.message, { field: i.path.join(".") });
}

export function parseProfile(body: unknown): ProfileInput {
  const p = profileSchema.safeParse(body ?? {});
  if (!p.success) fail(p.error);
  const d = p.data;
  if (!d.name || d.keywords.length === 0) throw new AppError("validation", MISSING_INFORMATION);
  const info =
    d.contactInfo !== undefined
      ? parseContactInfo(d.contactInfo)
      : parseContactInfo({ email: d.email, phone: d.phone });
  return {
    name: d.name,
    department: d.department,
    keywords: d.keywords,
    contactInfo: JSON.stringify({ email: info.email, phone: info.phone ?? PLACEHOLDER_PHONE }),
    priority: d.priority,
    responseTemplate: d.responseTemplate ?? null,
    escalationTime: d.escalationTime,
    ownerEscalationMinutes: d.ownerEscalationMinutes,
    isActive: d.isActive,
  };
}

const bankSchema = z.object({
  category: z
    .enum(BANK_CATEGORIES, { errorMap: () => ({ message: `Category must be one of: ${BANK_CATEGORIES.join(", ")}` }) })
    .or(z.literal(""))
    .default(""),
  keywords: keywords.default([]),
  priority: z.enum(BANK_PRIORITIES).default("medium"),
  alertProfileId: z.preprocess(
    (v) => (v === "" || v === "none" || v === undefined ? null : v),
    z.coerce.number().int().positive().nullable(),
  ),
  autoResponse: optText(1600),
  useAI: flag.default(false),
  aiPrompt: optText(1000),
  isActive: flag.default(true),
});

export type BankInput = {
  category: string;
  keywords: string[];
  priority: string;
  alertProfileId: number | null;
  autoResponse: string | null;
  useAi: boolean;
  aiPrompt: string | null;
  isActive: boolean;
};

export function parseBank(body: unknown): BankInput {
  const b = (body ?? {}) as Record<string, unknown>;
  const p = bankSchema.safeParse({ ...b, useAI: b.useAI ?? b.useAi });
  if (!p.success) fail(p.error);
  const d = p.data;
  if (!d.category || d.keywords.length === 0) throw new AppError("validation", MISSING_INFORMATION);
  return {
    category: d.category,
    keywords: d.keywords,
    priority: d.priority,
    alertProfileId: d.alertProfileId,
    autoResponse: d.autoResponse ?? null,
    useAi: d.useAI,
    aiPrompt: d.aiPrompt ?? null,
    isActive: d.isActive,
  };
}
