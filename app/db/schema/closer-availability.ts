import { sqliteTable, integer, text, primaryKey } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/**
 * A closer's weekly hours (issue 28 item 2, decision 058, migration 0067): one window a weekday (0 = Sunday), minutes
 * after midnight in the closer's `time_zone`. The login-free booking page offers slots inside them.
 */
export const closerAvailability = sqliteTable(
  "closer_availability",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    weekday: integer("weekday").notNull(),
    startMinute: integer("start_minute").notNull(),
    endMinute: integer("end_minute").notNull(),
    timeZone: text("time_zone").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.weekday] })],
);

export type CloserAvailability = typeof closerAvailability.$inferSelect;
