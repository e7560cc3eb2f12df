import { sqliteTable, text, index } from "drizzle-orm/sqlite-core";
import { autoId, createdAt, parentId } from "./_columns";
import { users } from "./users";

export const chatMessages = sqliteTable(
  "chat_messages",
  {
    id: autoId(),
    userId: parentId("user_id", () => users.id),
    role: text("role", { enum: ["user", "assistant"] }).notNull(),
    content: text("content").notNull(),
    suggestions: text("suggestions", { mode: "json" }).$type<string[]>(),
    createdAt: createdAt(),
  },
  // created_at: the retention purge (app/jobs/purge-old-rows.server.ts, decision 022).
  (t) => [
    index("chat_messages_user_created_at_idx").on(t.userId, t.createdAt),
    index("chat_messages_created_at_idx").on(t.createdAt),
  ],
);
