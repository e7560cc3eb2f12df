import { sqliteTable, text, index } from "drizzle-orm/sqlite-core";
import { createdAt, parentId, utc } from "./_columns";
import { users } from "./users";

// The cookie carries a random token; only its SHA-256 lives here, so a leaked table cannot be replayed.
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(), // hex SHA-256 of the cookie token
    userId: parentId("user_id", () => users.id),
    createdAt: createdAt(),
    lastSeenAt: utc("last_seen_at").notNull(),
    expiresAt: utc("expires_at").notNull(), // absolute expiry
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
  },
  (t) => [
    index("sessions_user_id_idx").on(t.userId),
    index("sessions_expires_at_idx").on(t.expiresAt),
    index("sessions_last_seen_at_idx").on(t.lastSeenAt),
  ],
);

export type Session = typeof sessions.$inferSelect;
