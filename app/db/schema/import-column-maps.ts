import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { utc } from "./_columns";

/**
 * The Match columns step's last choice for a header set (decision 024): keyed by the SHA-256 of the normalised
 * header list, pre-selected the next time the same headers arrive. At most 50 rows (the most recently used).
 */
export const importColumnMaps = sqliteTable("import_column_maps", {
  headerHash: text("header_hash").primaryKey(),
  columns: text("columns", { mode: "json" }).$type<(string | null)[]>().notNull(),
  usedAt: utc("used_at").notNull(),
});

export type ImportColumnMap = typeof importColumnMaps.$inferSelect;
