import { sqliteTable, integer, text, primaryKey, index } from "drizzle-orm/sqlite-core";

/**
 * Fixed-window counters for the automatic channels' caps (migration 0046, decision 021): one row per channel,
 * subject (a number, a user, a conversation, "org") and window. Incremented with one UPSERT … RETURNING; purged by
 * the cron tick through the expires_at index.
 */
export const capCounters = sqliteTable(
  "cap_counters",
  {
    channel: text("channel").notNull(),
    subject: text("subject").notNull(),
    windowStart: integer("window_start").notNull(),
    hits: integer("hits").notNull().default(0),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.channel, t.subject, t.windowStart] }),
    index("cap_counters_expires_at_idx").on(t.expiresAt),
  ],
);
