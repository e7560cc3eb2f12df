import { z } from "zod";

// SPEC §5 texts.
export const REQUIRED_FIELDS_MISSING = {
  title: "Required fields missing",
  description: "Please fill in all required fields (First Name, Last Name, Phone).",
} as const;

const required = (message: string, max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "") || v === null ? undefined : v,
    z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`),
  );
const optional = (max: number) =>
  z.preprocess(
    (v) => ((typeof v === "string" && v.trim() === "") || v === null ? undefined : v),
    z.string().trim().max(max, `Must be at most ${max} characters`).optional(),
  );

/** One schema for the form (conform) and the JSON API. */
export const contactSchema = z.object({
  firstName: required("First name is required", 100),
  lastName: required("Last name is required", 100),
  phone: required("Phone is required", 40),
  email: z.preprocess(
    (v) => ((typeof v === "string" && v.trim() === "") || v === null ? undefined : v),
    z.string().trim().toLowerCase().email("Please enter a valid email address").max(254).optional(),
  ),
  company: optional(200),
  address: optional(300),
  city: optional(100),
  state: optional(50),
  zipCode: optional(20),
});
export type ContactInput = z.infer<typeof contactSchema>;

export const REQUIRED_CONTACT_FIELDS = ["firstName", "lastName", "phone"] as const;

/** The API's 400 message: SPEC's sentence for a missing required field, otherwise the first problem. */
export function contactErrorMessage(error: z.ZodError): string {
  const missing = error.issues.some(
    (i) => REQUIRED_CONTACT_FIELDS.includes(i.path[0] as (typeof REQUIRED_CONTACT_FIELDS)[number]) && /required/.test(i.message),
  );
  if (missing) return REQUIRED_FIELDS_MISSING.description;
  const first = error.issues[0];
  return first ? `${first.path.join(".") || "contact"}: ${first.message}` : "Invalid contact";
}
