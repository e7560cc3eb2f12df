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
