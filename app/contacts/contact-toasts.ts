// SPEC §8: the toast of each contact action. The add/edit dialog adds the retry sentence to a failure's message
// (contact-form.tsx reads the FormFailure formAction answers with).
export const CONTACT_FAILED = {
  create: "Failed to create contact",
  update: "Failed to update contact",
  delete: "Failed to delete contact",
} as const;
export const CONTACT_DONE = {
  create: "Contact created",
  update: "Contact updated",
  delete: "Contact deleted",
} as const;
