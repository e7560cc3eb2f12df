import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt, updatedAt } from "./_columns";

export const autoResponders = sqliteTable(
  "auto_responders",
  {
    id: autoId(),
    name: text("name").notNull(),
    keyword: text("keyword").notNull(),
    category: text("category").notNull().default("solar_inquiry"),
    triggerType: text("trigger_type").notNull().default("keyword_match"),
    keywords: text("keywords", { mode: "json" }).$type<string[]>().notNull().default([]),
    isActive: bool("is_active").notNull().default(true),
    responseCount: integer("response_count").notNull().default(0),
    conditions: text("conditions", { mode: "json" }).$type<Record<string, unknown>>(),
    aiSettings: text("ai_settings", { mode: "json" }).$type<Record<string, unknown>>(),
    responses: text("responses", { mode: "json" }).$type<Record<string, unknown>>(),
    escalation: text("escalation", { mode: "json" }).$type<Record<string, unknown>>(),
    scheduling: text("scheduling", { mode: "json" }).$type<Record<string, unknown>>(),
    analytics: text("analytics", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("auto_responders_active_idx").on(t.isActive, t.id)],
);
