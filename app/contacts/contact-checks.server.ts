import { and, eq, ne } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contacts, type Contact } from "~/db/schema";
import { AppError } from "~/lib/app-error";

// What creating and updating a contact share: the phone must be free, and the row is read again after the write.

/** Refuses a phone number another contact already has, naming that contact. */
export async function assertPhoneFree(db: Db, phone: string, exceptId?: number) {
  const clash = await db
    .select({ id: contacts.id, firstName: contacts.firstName, lastName: contacts.lastName })
    .from(contacts)
    .where(exceptId ? and(eq(contacts.phone, phone), ne(contacts.id, exceptId)) : eq(contacts.phone, phone))
    .get();
  if (clash) {
    throw new AppError(
      "conflict",
      `A contact with this phone number already exists (${clash.firstName} ${clash.lastName})`,
    );
  }
}

/** The row again when the opt-out flags may have just been set from the suppression list. */
export async function reloadContact(db: Db, c: Contact): Promise<Contact> {
  return (await db.select().from(contacts).where(eq(contacts.id, c.id)).get()) ?? c;
}
