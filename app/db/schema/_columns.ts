import { integer, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";

/** Every table's own key: an INTEGER PRIMARY KEY AUTOINCREMENT named id (ids are never reused after a delete). */
export const autoId = () => integer("id").primaryKey({ autoIncrement: true });
// Every timestamp is UTC epoch milliseconds: unambiguous, sortable, cheap to index.
export const utc = (name: string) => integer(name, { mode: "timestamp_ms" });
export const createdAt = () =>
  utc("created_at")
    .notNull()
    .$defaultFn(() => new Date());
export const updatedAt = () =>
  utc("updated_at")
    .notNull()
    .$defaultFn(() => new Date());
export const bool = (name: string) => integer(name, { mode: "boolean" });
/** A required reference to the parent row, deleted with it (ON DELETE CASCADE). */
export const parentId = (name: string, parent: () => AnySQLiteColumn) =>
  integer(name).notNull().references(parent, { onDelete: "cascade" });
