import type { Contact } from "~/db/schema";

/** What the API and screens show of a contact. */
export function publicContact(c: Contact) {
  return {
    id: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    phone: c.phone,
    email: c.email,
    company: c.company,
    address: c.address,
    city: c.city,
    state: c.state,
    zipCode: c.zipCode,
    timeZone: c.timeZone,
    sendable: c.sendable,
    unsendableReason: c.unsendableReason,
    optedOut: c.optedOutAt !== null,
    optedOutAt: c.optedOutAt?.toISOString() ?? null,
    optedOutSource: c.optedOutSource,
    consentSource: c.consentSource,
    consentAt: c.consentAt?.toISOString() ?? null,
    emailUnsubscribed: c.emailUnsubscribedAt !== null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
export type PublicContact = ReturnType<typeof publicContact>;
