import { sql } from "drizzle-orm";
import { sqliteTable, integer, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, createdAt, updatedAt } from "./_columns";
import { users } from "./users";

/**
 * A saved segment (issue 28 item 1, migration 0081, decision 075): a named filter over contacts — stage, tags, owner,
 * last touch, reply state, consent, the bill and fields — kept as its zod-checked JSON definition
 * (app/segments/segment-definition.ts) and evaluated whenever it is used, never stored as a list. A campaign's or a
 * broadcast's audience names one. Unique by name (case-blind), which is also the list's order.
 */
export const segments = sqliteTable(
  "segments",
  {
    id: autoId(),
    name: text("name").notNull(),
    definition: text("definition").notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("segments_name_uq").on(sql`lower(${t.name})`)],
);

export type Segment = typeof segments.$inferSelect;
