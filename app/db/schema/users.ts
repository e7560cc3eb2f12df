import { sqliteTable, integer, text, uniqueIndex, index } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt, updatedAt, utc } from "./_columns";

export const ROLES = ["user", "superuser"] as const;
export type Role = (typeof ROLES)[number];

export const users = sqliteTable(
  "users",
  {
    id: autoId(),
    // Stored lower-cased so the unique index is case-insensitive in effect.
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    // Feeds {{salesRepPhone}}; edited on the user's own profile.
    phone: text("phone"),
    role: text("role", { enum: ROLES }).notNull().default("user"),
    isActive: bool("is_active").notNull().default(true),
    // Round-robin assignment of new leads skips a user who is away (migration 0056, decision 044).
    availableForLeads: bool("available_for_leads").notNull().default(true),
    // The rep's own sending number (migration 0057, decision 045): E.164 or a Messaging Service SID; null = default.
    smsSender: text("sms_sender"),
    lastLoginAt: utc("last_login_at"),
    loginCount: integer("login_count").notNull().default(0),
    // Set by an administrator's create/reset (a one-time password): the layout guard sends the user to change it.
    mustChangePassword: bool("must_change_password").notNull().default(false),
    // Kept by triggers on activity_log (migration 0028).
    activityCount: integer("activity_count").notNull().default(0),
    // TOTP two-factor (migration 0048, decision 023): the base32 secret from the start of enrolment; on once
    // totp_enabled_at is set; totp_last_step is the last 30 s step accepted (a code is never accepted twice).
    totpSecret: text("totp_secret"),
    totpEnabledAt: utc("totp_enabled_at"),
    totpLastStep: integer("totp_last_step"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_uq").on(t.email),
    index("users_created_at_idx").on(t.createdAt),
    // One number is one rep's; an inbound reply's `To` and a contact's sticky sender find the rep by it.
    uniqueIndex("users_sms_sender_uq").on(t.smsSender),
  ],
);

export type User = typeof users.$inferSelect;
