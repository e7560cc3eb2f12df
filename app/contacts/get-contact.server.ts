import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contacts, type Contact } from "~/db/schema";
import { AppError } from "~/lib/app-error";

export const CONTACT_NOT_FOUND = "Contact not found";

export async function getContact(db: Db, id: number): Promise<Contact> {
  const c = await db.select().from(contacts).where(eq(contacts.id, id)).get();
  if (!c) throw new AppError("not_found", CONTACT_NOT_FOUND);
  return c;
}
