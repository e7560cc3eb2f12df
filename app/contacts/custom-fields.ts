// Per-contact custom fields: the Solar and Appointment platform variables, kept as one JSON object in
// contacts.custom_fields, imported from CSV columns of the same names and edited on the contact form.

/** Per-contact values kept in contacts.custom_fields (JSON), importable from CSV columns of the same names. */
export const CUSTOM_FIELD_VARIABLES = [
  "roofSize",
  "systemSize",
  "estimatedSavings",
  "yearOneSavings",
  "incentiveAmount",
  "paybackPeriod",
  "appointmentDate",
  "appointmentTime",
  "meetingLink",
] as const;
/**
 * Custom fields a feature computes when the contact has none typed (decision 074: the savings estimate from public
 * data): their variables are never missing for a contact.
 */
export const COMPUTED_FIELD_VARIABLES: ReadonlySet<string> = new Set([
  "systemSize",
  "estimatedSavings",
  "yearOneSavings",
  "incentiveAmount",
  "paybackPeriod",
]);
export type CustomFieldName = (typeof CUSTOM_FIELD_VARIABLES)[number];
export type CustomFields = Partial<Record<CustomFieldName, string>>;

const clean = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** contacts.custom_fields → the known, non-blank fields (anything malformed reads as none). */
export function parseCustomFields(json: string | null | undefined): CustomFields {
  if (!json) return {};
  try {
    const o = JSON.parse(json) as unknown;
    if (!o || typeof o !== "object" || Array.isArray(o)) return {};
    const out: CustomFields = {};
    for (const k of CUSTOM_FIELD_VARIABLES) {
      const v = (o as Record<string, unknown>)[k];
      const s = clean(typeof v === "number" ? String(v) : v);
      if (s) out[k] = s;
    }
    return out;
  } catch {
    return {};
  }
}

/** Known, non-blank fields as the JSON stored in contacts.custom_fields; null when there are none. */
export function serializeCustomFields(fields: Partial<Record<string, string | null | undefined>>): string | null {
  const out: CustomFields = {};
  for (const k of CUSTOM_FIELD_VARIABLES) {
    const s = clean(fields[k]);
    if (s) out[k] = s;
  }
  return Object.keys(out).length ? JSON.stringify(out) : null;
}
