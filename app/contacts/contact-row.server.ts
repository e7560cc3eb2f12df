import { isUniqueViolation } from "~/db/unique-violation";
import { assessPhone, normalizePhone } from "./phone";
import { deriveTimeZone, normalizeState } from "./us-geo";
import { serializeCustomFields } from "./custom-fields";

import type { ContactFields } from "./contact-fields";
export type { ContactFields };

/** D1's unique-phone failure, whether raw (batch) or wrapped by drizzle (single query, message in `cause`). */
export function isUniquePhoneViolation(err: unknown): boolean {
  return isUniqueViolation(err, "contacts.phone");
}

/**
 * The stored form of a contact: phone normalised (SPEC §5), sendability assessed (kept but flagged when it
 * cannot be a US number), state as a USPS code when recognisable, time zone derived for quiet hours.
 */
export function toContactValues(input: ContactFields) {
  const phone = normalizePhone(input.phone);
  const assessment = assessPhone(phone);
  const state = input.state ? (normalizeState(input.state) ?? input.state.trim()) : null;
  return {
    firstName: input.firstName.trim(),
    lastName: input.lastName.trim(),
    phone,
    email: input.email ? input.email.trim().toLowerCase() : null,
    company: input.company?.trim() || null,
    address: input.address?.trim() || null,
    city: input.city?.trim() || null,
    state,
    zipCode: input.zipCode?.trim() || null,
    timeZone: deriveTimeZone({ state, zipCode: input.zipCode, phone }),
    sendable: assessment.sendable,
    unsendableReason: assessment.sendable ? null : assessment.reason,
    // undefined: not given, so an update keeps the stored fields (drizzle skips undefined; JSON drops the key).
    customFields: input.customFields === undefined ? undefined : serializeCustomFields(input.customFields),
  };
}
export type ContactValues = ReturnType<typeof toContactValues>;
