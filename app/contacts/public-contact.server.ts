import type { Contact } from "~/db/schema";
import { pickContactFields } from "./contact-fields";
import { consentPurposeOf } from "./consent-purpose";

/** What the API and screens show of a contact. */
export function publicContact(c: Contact) {
  return {
    id: c.id,
    ...pickContactFields(c),
    timeZone: c.timeZone,
    sendable: c.sendable,
    unsendableReason: c.unsendableReason,
    optedOut: c.optedOutAt !== null,
    optedOutAt: c.optedOutAt?.toISOString() ?? null,
    optedOutSource: c.optedOutSource,
    // An opt-out before decision 072 has no scope: it ended everything.
    optedOutScope: c.optedOutAt ? (c.optedOutScope ?? "all") : null,
    consentSource: c.consentSource,
    consentAt: c.consentAt?.toISOString() ?? null,
    consentPurpose: consentPurposeOf(c.consentPurpose),
    emailUnsubscribed: c.emailUnsubscribedAt !== null,
    // Where the sale stands (decision 053).
    stage: c.stage,
    stageChangedAt: c.stageChangedAt?.toISOString() ?? null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
export type PublicContact = ReturnType<typeof publicContact>;
