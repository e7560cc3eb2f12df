import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt, updatedAt } from "./_columns";
import { alertProfiles } from "./alert-profiles";

export const keywordBanks = sqliteTable(
  "keyword_banks",
  {
    id: autoId(),
    category: text("category").notNull(),
    keywords: text("keywords", { mode: "json" }).$type<string[]>().notNull().default([]),
    priority: text("priority").notNull().default("medium"),
    alertProfileId: integer("alert_profile_id").references(() => alertProfiles.id, { onDelete: "set null" }),
    autoResponse: text("auto_response"),
    useAi: bool("use_ai").notNull().default(false),
    aiPrompt: text("ai_prompt"),
    triggerCount: integer("trigger_count").notNull().default(0),
    isActive: bool("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("keyword_banks_active_idx").on(t.isActive, t.id),
    index("keyword_banks_alert_profile_idx").on(t.alertProfileId),
  ],
);
