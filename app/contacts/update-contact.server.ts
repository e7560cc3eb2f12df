import { eq } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { contacts, type Contact } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { assertPhoneFree, reloadContact } from "./contact-checks.server";
import { isUniquePhoneViolation, toContactValues, type ContactFields } from "./contact-row.server";
import { CONTACT_NOT_FOUND, getContact } from "./get-contact.server";
import type { ContactViewer } from "./contact-scope.server";
import { optOutFlagStatements } from "./upsert-contacts.server";

/** Saves a contact's fields; a contact outside the viewer's scope is not found (decision 048). */
export async function updateContact(
  db: Db,
  id: number,
  input: ContactFields,
  viewer: ContactViewer,
  now: Date,
): Promise<Contact> {
  await getContact(db, id, viewer);
  const values = toContactValues(input);
  await assertPhoneFree(db, values.phone, id);
  try {
    const [updated] = await db
      .update(contacts)
      .set({ ...values, updatedAt: now })
      .where(eq(contacts.id, id))
      .returning();
    if (!updated) throw new AppError("not_found", CONTACT_NOT_FOUND);
    await runBatch(db, optOutFlagStatements(db, [values]));
    return reloadContact(db, updated);
  } catch (err) {
    if (isUniquePhoneViolation(err)) throw new AppError("conflict", "A contact with this phone number already exists");
    throw err;
  }
}
