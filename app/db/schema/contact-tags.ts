import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, parentId } from "./_columns";
import { contacts } from "./contacts";

/**
 * Free tags on a contact (issue 28 item 1, migration 0079): "roof replaced", "hoa", "spanish". Stored trimmed and
 * lower-cased so "HOA" and "hoa" are one tag. The primary key reads a contact's tags; `contact_tags_tag_idx` a tag's
 * contacts (a rule's or a list's), newest first.
 */
export const contactTags = sqliteTable(
  "contact_tags",
  {
    contactId: parentId("contact_id", () => contacts.id),
    tag: text("tag").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.tag] }), index("contact_tags_tag_idx").on(t.tag, t.contactId)],
);

export type ContactTag = typeof contactTags.$inferSelect;
