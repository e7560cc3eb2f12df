import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { utc } from "./_columns";

/** Organisation-wide values (company name, phone, website) that feed platform variables; superusers edit them. */
export const orgSettings = sqliteTable("org_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: utc("updated_at").notNull(),
});

export type OrgSetting = typeof orgSettings.$inferSelect;
