import { and, eq } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import type { Db } from "~/db/client.server";
import { contactTags } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import type { ContactViewer } from "./contact-scope.server";
import { requireTag } from "./contact-tag";
import { getContact } from "./get-contact.server";

/** Takes a tag off a contact the person sees; a tag it does not have is no change. Logged with the removal. */
export async function removeContactTag(
  db: Db,
  input: { contactId: number; tag: string },
  actor: Actor & ContactViewer,
  now: Date,
): Promise<{ removed: boolean }> {
  const tag = requireTag(input.tag);
  const contact = await getContact(db, input.contactId, actor);
  const deleted = await db
    .delete(contactTags)
    .where(and(eq(contactTags.contactId, contact.id), eq(contactTags.tag, tag)))
    .returning({ tag: contactTags.tag });
  if (!deleted.length) return { removed: false };
  await logActivity(db, "untag_contact", {
    ...actor,
    details: { contactId: contact.id, tag },
    now,
  });
  return { removed: true };
}
