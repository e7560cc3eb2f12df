/** The editable fields of a contact, as forms, imports, the API and exports carry them. */
export type ContactFields = {
  firstName: string;
  lastName: string;
  phone: string;
  email?: string | null;
  company?: string | null;
  address?: string | null;
  city?: string | null;
  state?: string | null;
  zipCode?: string | null;
  /** Solar / Appointment variable values; undefined = keep the contact's (see custom-fields.ts). */
  customFields?: Partial<Record<string, string | null | undefined>>;
};

/** The editable fields in the order every list of them follows (the import's Match columns step, every download). */
export const CONTACT_FIELD_NAMES = [
  "firstName",
  "lastName",
  "phone",
  "email",
  "company",
  "address",
  "city",
  "state",
  "zipCode",
] as const satisfies readonly Exclude<keyof ContactFields, "customFields">[];

export type ContactFieldName = (typeof CONTACT_FIELD_NAMES)[number];

/** The nine fields of a contact-like record, in CONTACT_FIELD_NAMES order. */
export function pickContactFields<T extends Record<ContactFieldName, unknown>>(c: T): Pick<T, ContactFieldName> {
  return Object.fromEntries(CONTACT_FIELD_NAMES.map((k) => [k, c[k]])) as Pick<T, ContactFieldName>;
}

/** Those fields as a contacts row read with SQL names them (snake_case). */
export type ContactFieldColumns = {
  first_name: string;
  last_name: string;
  phone: string;
  email: string | null;
  company: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
};

/** A row's editable fields under their own names: the values a template renders a contact with. */
export function fieldsOfRow(c: ContactFieldColumns) {
  return {
    firstName: c.first_name,
    lastName: c.last_name,
    phone: c.phone,
    email: c.email,
    company: c.company,
    address: c.address,
    city: c.city,
    state: c.state,
    zipCode: c.zip_code,
  };
}
