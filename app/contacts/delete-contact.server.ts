import { and, eq, sql } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { contacts, messages } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { CONTACT_NOT_FOUND, getContact } from "./get-contact.server";
import type { ContactViewer } from "./contact-scope.server";

/**
 * Deletes the contact; messages to it that have not gone yet are skipped, not sent to a deleted contact. A contact
 * outside the viewer's scope is not found (decision 048) and nothing is touched.
 */
export async function deleteContact(db: Db, id: number, viewer: ContactViewer): Promise<void> {
  await getContact(db, id, viewer);
  const t = Date.now();
  const [, deleted] = (await runBatch(db, [
    db
      .update(messages)
      .set({ status: "skipped", errorMessage: "Contact deleted", updatedAt: new Date(t) })
      // The contact thread index drives; unary + keeps the backlog index out of it.
      .where(
        and(
          eq(messages.contactId, id),
          sql`+${messages.status} IN ('pending', 'queued')`,
          sql`${messages.direction} = 'outbound'`,
        ),
      ),
    db.delete(contacts).where(eq(contacts.id, id)).returning({ id: contacts.id }),
  ])) as [unknown, { id: number }[]];
  if (deleted.length === 0) throw new AppError("not_found", CONTACT_NOT_FOUND);
}
