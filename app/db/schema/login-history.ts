import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt } from "./_columns";
import { users } from "./users";

// Every attempt, failed ones too: the failure counts drive per-account and per-IP throttling.
export const loginHistory = sqliteTable(
  "login_history",
  {
    id: autoId(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    email: text("email").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    success: bool("success").notNull(),
    failureReason: text("failure_reason"),
    // The nonce of a valid device cookie presented with the attempt (null: an unknown client).
    deviceId: text("device_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("login_history_user_id_created_at_idx").on(t.userId, t.createdAt),
    index("login_history_email_created_at_idx").on(t.email, t.createdAt),
    index("login_history_ip_created_at_idx").on(t.ipAddress, t.createdAt),
    index("login_history_device_created_at_idx").on(t.deviceId, t.createdAt),
    // The retention purge (app/jobs/purge-old-rows.server.ts, decision 022).
    index("login_history_created_at_idx").on(t.createdAt),
  ],
);
