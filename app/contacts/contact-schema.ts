import { z } from "zod";
import { AppError } from "~/lib/app-error";
import { CUSTOM_FIELD_VARIABLES, type CustomFieldName } from "./custom-fields";

// SPEC §5 texts.
export const REQUIRED_FIELDS_MISSING = {
  title: "Required fields missing",
  description: "Please fill in all required fields (First Name, Last Name, Phone).",
} as const;

const required = (message: string, max: number) =>
  z.preprocess(
    (v) => ((typeof v === "string" && v.trim() === "") || v === null ? undefined : v),
    z
      .string({ required_error: message, invalid_type_error: message })
      .trim()
      .min(1, message)
      .max(max, `Must be at most ${max} characters`),
  );
const optional = (max: number) =>
  z.preprocess(
    (v) => ((typeof v === "string" && v.trim() === "") || v === null ? undefined : v),
    z.string().trim().max(max, `Must be at most ${max} characters`).optional(),
  );

const REQUIRED_MESSAGES = {
  firstName: "First name is required",
  lastName: "Last name is required",
  phone: "Phone is required",
} as const;

/** One schema for the form (conform) and the JSON API. */
export const contactSchema = z.object({
  firstName: required(REQUIRED_MESSAGES.firstName, 100),
  lastName: required(REQUIRED_MESSAGES.lastName, 100),
  phone: required(REQUIRED_MESSAGES.phone, 40),
  email: z.preprocess(
    (v) => ((typeof v === "string" && v.trim() === "") || v === null ? undefined : v),
    z.string().trim().toLowerCase().email("Please enter a valid email address").max(254).optional(),
  ),
  company: optional(200),
  address: optional(300),
  city: optional(100),
  state: optional(50),
  zipCode: optional(20),
  // The Solar and Appointment variables. Left out (the API) keeps what the contact has; the form always sends it.
  customFields: z
    .object(
      Object.fromEntries(CUSTOM_FIELD_VARIABLES.map((n) => [n, optional(200)])) as Record<
        CustomFieldName,
        ReturnType<typeof optional>
      >,
    )
    .optional(),
});
export type ContactInput = z.infer<typeof contactSchema>;

export const REQUIRED_CONTACT_FIELDS = ["firstName", "lastName", "phone"] as const;

/** Whether a required field is missing (zod reports a missing value as `invalid_type`; never read from the message). */
function missingInIssues(error: z.ZodError): boolean {
  return error.issues.some(
    (i) =>
      REQUIRED_CONTACT_FIELDS.includes(i.path[0] as (typeof REQUIRED_CONTACT_FIELDS)[number]) &&
      (i.code === z.ZodIssueCode.invalid_type || i.code === z.ZodIssueCode.too_small),
  );
}

/** The same test on conform's per-field messages: a required field's error is exactly its "… is required" message. */
export function missingRequiredField(errors: Record<string, string[] | null> | undefined | null): boolean {
  return REQUIRED_CONTACT_FIELDS.some((f) => errors?.[f]?.includes(REQUIRED_MESSAGES[f]) ?? false);
}

/** The API's 400 message: SPEC's sentence for a missing required field, otherwise the first problem. */
export function contactErrorMessage(error: z.ZodError): string {
  if (missingInIssues(error)) return REQUIRED_FIELDS_MISSING.description;
  const first = error.issues[0];
  return first ? `${first.path.join(".") || "contact"}: ${first.message}` : "Invalid contact";
}

/** A contact from a JSON body: the API's 400 (validation AppError) with contactErrorMessage when it does not parse. */
export function parseContact(body: unknown): ContactInput {
  const parsed = contactSchema.safeParse(body);
  if (!parsed.success) throw new AppError("validation", contactErrorMessage(parsed.error));
  return parsed.data;
}
