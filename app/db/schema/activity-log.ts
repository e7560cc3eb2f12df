import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { autoId, createdAt } from "./_columns";
import { users } from "./users";

export const activityLog = sqliteTable(
  "activity_log",
  {
    id: autoId(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>(),
    ipAddress: text("ip_address"),
    createdAt: createdAt(),
  },
  (t) => [
    index("activity_log_created_at_idx").on(t.createdAt),
    index("activity_log_user_id_created_at_idx").on(t.userId, t.createdAt),
  ],
);
