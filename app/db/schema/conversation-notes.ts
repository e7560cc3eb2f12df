import { sqliteTable, integer, text, index, primaryKey } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { autoId, createdAt } from "./_columns";
import { contacts } from "./contacts";
import { users } from "./users";

export const NOTE_KINDS = ["note", "handoff"] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];

/**
 * A rep's internal note on a conversation (issue 27 item 4, decision 047): a contact's (`contact_id`) or a bare
 * number's (`phone`, no contact). Its own table, never a `messages` row, so no send path can ever pick it up.
 * `handoff`: the note of an owner hand-off (set-contact-owner), `handoff_to` the new owner.
 */
export const conversationNotes = sqliteTable(
  "conversation_notes",
  {
    id: autoId(),
    kind: text("kind", { enum: NOTE_KINDS }).notNull().default("note"),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "cascade" }),
    phone: text("phone"),
    authorUserId: integer("author_user_id").references(() => users.id, { onDelete: "set null" }),
    handoffTo: integer("handoff_to").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  // A thread's notes in a time window (and the contact's cascade on delete); a bare number's the same.
  (t) => [
    index("conversation_notes_contact_idx").on(t.contactId, t.createdAt),
    index("conversation_notes_phone_idx")
      .on(t.phone, t.createdAt)
      .where(sql`contact_id IS NULL`),
  ],
);

/** Who a note mentions: a user's "Mentions" list is one seek of the primary key (user_id, note_id). */
export const noteMentions = sqliteTable(
  "note_mentions",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    noteId: integer("note_id")
      .notNull()
      .references(() => conversationNotes.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.noteId] }), index("note_mentions_note_idx").on(t.noteId)],
);

export type ConversationNote = typeof conversationNotes.$inferSelect;
