import { sqliteTable, integer } from "drizzle-orm/sqlite-core";
import { utc } from "./_columns";

/**
 * The round-robin cursor (migration 0056, decision 044): one row (id 1), the user who got the last new lead. The next
 * user is claimed by one atomic UPDATE … RETURNING, so concurrent inbound jobs each get their own turn.
 */
export const assignmentCursor = sqliteTable("assignment_cursor", {
  id: integer("id").primaryKey(),
  lastUserId: integer("last_user_id").notNull().default(0),
  updatedAt: utc("updated_at"),
});
