import { sqliteTable, integer, text } from "drizzle-orm/sqlite-core";
import { utc } from "./_columns";

/** Per-sending-number pacing: the next free send slot and today's count (UTC day) for the daily cap. */
export const senderPacing = sqliteTable("sender_pacing", {
  sender: text("sender").primaryKey(),
  nextSlotMs: integer("next_slot_ms").notNull().default(0),
  day: text("day").notNull().default(""), // YYYY-MM-DD (UTC)
  dayCount: integer("day_count").notNull().default(0),
  /** End of the queue of messages told to come back later (see projectSlots): keeps a long backlog in line. */
  projectedMs: integer("projected_ms").notNull().default(0),
  /**
   * Set when carriers filtered too many of this number's texts today (app/deliverability, decision 065): its
   * automated marketing waits, held, until a superuser resumes it; a rep's own texts and reminders still go.
   */
  marketingPausedAt: utc("marketing_paused_at"),
  marketingPausedReason: text("marketing_paused_reason"),
});
