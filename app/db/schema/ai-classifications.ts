import { sqliteTable, integer, text, index, primaryKey } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt, parentId, utc } from "./_columns";
import { messages } from "./messages";
import { users } from "./users";

/** One row per reply classification: measured analysis time and confidence, so screens show real figures. */
export const aiClassifications = sqliteTable(
  "ai_classifications",
  {
    id: autoId(),
    messageId: integer("message_id").references(() => messages.id, { onDelete: "set null" }),
    textPreview: text("text_preview").notNull(),
    intent: text("intent").notNull(),
    sentiment: text("sentiment").notNull(),
    confidence: integer("confidence").notNull(),
    provider: text("provider").notNull(),
    analysisMs: integer("analysis_ms").notNull(),
    createdAt: createdAt(),
    /** Set when a person confirms (true) or corrects (false) the classification. */
    markedCorrect: bool("marked_correct"),
  },
  (t) => [
    index("ai_classifications_created_at_idx").on(t.createdAt),
    index("ai_classifications_message_idx").on(t.messageId),
  ],
);

/** AI calls per user per minute window (cost control). */
export const aiUsage = sqliteTable(
  "ai_usage",
  {
    userId: parentId("user_id", () => users.id),
    windowStart: utc("window_start").notNull(),
    calls: integer("calls").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.windowStart] })],
);

export type AiClassificationRow = typeof aiClassifications.$inferSelect;
