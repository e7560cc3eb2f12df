import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { autoId, createdAt, updatedAt } from "./_columns";
import { MESSAGE_TYPES } from "./campaign-steps";
import { users } from "./users";

export const templates = sqliteTable(
  "templates",
  {
    id: autoId(),
    name: text("name").notNull(),
    type: text("type", { enum: MESSAGE_TYPES }).notNull().default("sms"),
    subject: text("subject"),
    content: text("content").notNull(),
    variables: text("variables", { mode: "json" }).$type<string[]>().notNull().default([]),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("templates_created_at_idx").on(t.createdAt)],
);
