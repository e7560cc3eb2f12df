import type { ContactFields } from "~/contacts/contact-fields";

/** One fully filled, normalised contact: what a clean CSV row parses to and what a download writes out. */
export const ADA: ContactFields = {
  firstName: "Ada",
  lastName: "Lovelace",
  phone: "+12125554567",
  email: "ada@example.com",
  company: "Analytical Ltd",
  address: "1 Main St",
  city: "Albany",
  state: "NY",
  zipCode: "12207",
};
