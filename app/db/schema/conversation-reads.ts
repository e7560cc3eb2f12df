import { sqliteTable, integer, primaryKey } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/**
 * Per user, the latest message of a conversation when they last opened it (migration 0058, decision 046): the
 * conversation is unread for them while its last_inbound_id is above read_message_id. WITHOUT ROWID, keyed
 * (user, conversation): the unread count's join is one primary-key seek per row it looks at.
 */
export const conversationReads = sqliteTable(
  "conversation_reads",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    conversationId: integer("conversation_id").notNull(),
    readMessageId: integer("read_message_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.conversationId] })],
);
