import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contacts, type Contact } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { loadContactScope, scopeCondition, type ContactViewer } from "./contact-scope.server";

export const CONTACT_NOT_FOUND = "Contact not found";

/**
 * The contact if the viewer may see it (decision 048), else not_found — the same answer as a contact that does not
 * exist, so an id reveals nothing. One primary-key seek; the scope is a term of the same WHERE.
 */
export async function getContact(db: Db, id: number, viewer: ContactViewer): Promise<Contact> {
  const scope = await loadContactScope(db, viewer);
  const c = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.id, id), scopeCondition(scope)))
    .get();
  if (!c) throw new AppError("not_found", CONTACT_NOT_FOUND);
  return c;
}
