// What a consent covers (issue 29 item 2, decision 072), in the words the screens and the TCPA packet use.
import { CONSENT_PURPOSES, type ConsentPurpose } from "~/db/schema/contacts";

export const CONSENT_PURPOSE_LABEL: Record<ConsentPurpose, string> = {
  marketing: "Marketing and appointment texts",
  informational: "Appointment texts only",
};

export const CONSENT_PURPOSE_OPTIONS = CONSENT_PURPOSES.map((value) => ({
  value,
  label: CONSENT_PURPOSE_LABEL[value],
}));

/** A contact's or a record's purpose as stored (null: marketing, as before decision 072). */
export const consentPurposeOf = (stored: string | null | undefined): ConsentPurpose =>
  stored === "informational" ? "informational" : "marketing";
