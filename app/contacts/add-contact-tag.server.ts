import { logActivity } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { contactTags } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { AppError } from "~/lib/app-error";
import { NO_CONTACT_EVENT_HOOKS, type ContactEventHooks } from "./contact-event-hooks";
import type { ContactViewer } from "./contact-scope.server";
import { MAX_TAGS_PER_CONTACT, requireTag } from "./contact-tag";
import { getContact } from "./get-contact.server";
import { selectContactTags } from "./list-contact-tags.server";

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
  // The contact's tags (at most MAX_TAGS_PER_CONTACT rows, a range of the key): both the "has it" and the limit.
  const tags = (await selectContactTags(db, contact.id)).map((r) => r.tag);
  if (tags.includes(tag)) return { added: false };
  if (tags.length >= MAX_TAGS_PER_CONTACT)
    throw new AppError("conflict", `A contact can have at most ${MAX_TAGS_PER_CONTACT} tags: remove one first`, {
      field: "tag",
    });
  // The tag and its activity entry in one transaction.
  const [inserted] = (await runBatch(db, [
    db
      .insert(contactTags)
      .values({ contactId: contact.id, tag, createdAt: now })
      .onConflictDoNothing()
      .returning({ tag: contactTags.tag }),
    logActivity(db, "tag_contact", {
      ...actor,
      details: { contactId: contact.id, tag },
      now,
    }),
  ])) as [{ tag: string }[], unknown];
  // A twin request added it in between: no change of ours (its entry is logged once more, nothing else).
  if (!inserted.length) return { added: false };
  await hooks.tagAdded({ db, now }, [contact.id], tag);
  return { added: true };
}
