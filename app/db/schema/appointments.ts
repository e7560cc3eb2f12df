import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { autoId, createdAt, parentId, updatedAt, utc } from "./_columns";
import { contacts } from "./contacts";
import { users } from "./users";

/**
 * scheduled → confirmed (the homeowner replied C/Y, or the rep marked it) → completed (sat) or no_show; cancelled
 * (a reply N, or by hand) or reschedule_requested (a reply R: the rep books a new one) before it.
 */
export const APPOINTMENT_STATUSES = [
  "scheduled",
  "confirmed",
  "reschedule_requested",
  "completed",
  "no_show",
  "cancelled",
] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/**
 * An appointment a closer sits with a homeowner (issue 28 item 2, decision 055, migration 0064). `startsAt` is the
 * instant; `timeZone` the homeowner's zone every text about it speaks in. `nextReminderAt`: when the reminder task
 * next has something to send (24 h, then 2 h before); `remindersSent` counts them (0, 1, 2).
 */
export const appointments = sqliteTable(
  "appointments",
  {
    id: autoId(),
    contactId: parentId("contact_id", () => contacts.id),
    closerUserId: integer("closer_user_id").references(() => users.id, { onDelete: "set null" }),
    startsAt: utc("starts_at").notNull(),
    durationMinutes: integer("duration_minutes").notNull().default(60),
    timeZone: text("time_zone").notNull(),
    location: text("location"),
    meetingLink: text("meeting_link"),
    status: text("status", { enum: APPOINTMENT_STATUSES }).notNull().default("scheduled"),
    note: text("note"),
    nextReminderAt: utc("next_reminder_at"),
    remindersSent: integer("reminders_sent").notNull().default(0),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("appointments_contact_idx").on(t.contactId, t.startsAt),
    index("appointments_reminder_due_idx")
      .on(t.nextReminderAt)
      .where(sql`${t.nextReminderAt} IS NOT NULL`),
  ],
);

export type Appointment = typeof appointments.$inferSelect;
