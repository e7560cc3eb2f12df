import type { Db } from "~/db/client.server";
import type { Contact } from "~/db/schema";
import { parseContact } from "./contact-schema";
import { getContact } from "./get-contact.server";
import { updateContact } from "./update-contact.server";
import type { ContactViewer } from "./contact-scope.server";

/**
 * The API's PUT: fields left out of `body` keep their values (the spec's client sends the whole contact; a
 * partial body is accepted too); a field sent empty is validated as empty.
 */
export async function updateContactFields(
  db: Db,
  id: number,
  body: object,
  viewer: ContactViewer,
  now: Date,
): Promise<Contact> {
  const { firstName, lastName, phone, email, company, address, city, state, zipCode } = await getContact(
    db,
    id,
    viewer,
  );
  return updateContact(
    db,
    id,
    parseContact({ firstName, lastName, phone, email, company, address, city, state, zipCode, ...body }),
    viewer,
    now,
  );
}
