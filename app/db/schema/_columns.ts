import { integer } from "drizzle-orm/sqlite-core";

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
