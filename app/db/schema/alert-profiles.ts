import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt, updatedAt } from "./_columns";

export const alertProfiles = sqliteTable(
  "alert_profiles",
  {
    id: autoId(),
    name: text("name").notNull(),
    department: text("department").notNull().default("Solar Sales"),
    keywords: text("keywords", { mode: "json" }).$type<string[]>().notNull().default([]),
    contactInfo: text("contact_info"), // JSON text {email, phone}, as the API sends it
    priority: text("priority").notNull().default("medium"),
    responseTemplate: text("response_template"),
    escalationTime: integer("escalation_time").notNull().default(15),
    /** Owner first (decision 050): minutes an owned contact's alert waits for a person's answer before the profile's recipients get it; 0 = at once. */
    ownerEscalationMinutes: integer("owner_escalation_minutes").notNull().default(15),
    isActive: bool("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("alert_profiles_active_idx").on(t.isActive, t.id)],
);
