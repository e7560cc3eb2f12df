import { and, count, eq } from "drizzle-orm";
import { activityRow } from "~/activity/log-activity.server";
import type { Db } from "~/db/client.server";
import { activityLog, contactTags } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { AppError } from "~/lib/app-error";
import { NO_CONTACT_EVENT_HOOKS, type ContactEventHooks } from "./contact-event-hooks";
import type { ContactViewer } from "./contact-scope.server";
import { MAX_TAGS_PER_CONTACT, requireTag } from "./contact-tag";
import { getContact } from "./get-contact.server";

/**
 * Tags a contact the person sees (decision 048: another rep's contact is not found). The tag is checked and
 * normalised here (contact-tag.ts: a bad one is the validation error); a tag the contact has is no change. Past MAX_TAGS_PER_CONTACT it is refused (a race of two adds
 * may pass it by one: a label limit, not a quota). A new tag is logged and heard by the "gets a tag" sequence rules.
 */
export async function addContactTag(
  db: Db,
  input: { contactId: number; tag: string },
  actor: Actor & ContactViewer,
  now: Date,
  hooks: ContactEventHooks = NO_CONTACT_EVENT_HOOKS,
): Promise<{ added: boolean }> {
  const tag = requireTag(input.tag);
  const contact = await getContact(db, input.contactId, actor);
  const [{ n }] = await db.select({ n: count() }).from(contactTags).where(eq(contactTags.contactId, contact.id));
  const has = await db
    .select({ tag: contactTags.tag })
    .from(contactTags)
    .where(and(eq(contactTags.contactId, contact.id), eq(contactTags.tag, tag)))
    .get();
  if (has) return { added: false };
  if (n >= MAX_TAGS_PER_CONTACT)
    throw new AppError("conflict", `A contact can have at most ${MAX_TAGS_PER_CONTACT} tags: remove one first`, {
      field: "tag",
    });
  const inserted = await db
    .insert(contactTags)
    .values({ contactId: contact.id, tag: tag, createdAt: now })
    .onConflictDoNothing()
    .returning({ tag: contactTags.tag });
  if (!inserted.length) return { added: false };
  await db.insert(activityLog).values(
    activityRow("tag_contact", {
      userId: actor.userId,
      ipAddress: actor.ipAddress,
      details: { contactId: contact.id, tag: tag },
      now,
    }),
  );
  await hooks.tagAdded({ db, now }, [contact.id], tag);
  return { added: true };
}
