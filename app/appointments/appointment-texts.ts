import { APPOINTMENT_STATUSES, type AppointmentStatus } from "~/db/schema/appointments";
import { appointmentVariables } from "~/messaging/variable-values";

export { appointmentVariables };

// What an appointment says to the homeowner (decision 055): always in the appointment's own time zone, the homeowner's,
// whoever books it and wherever the server runs. Pure, so the texts and their DST behaviour are tested directly.

export type AppointmentForText = {
  startsAt: Date;
  timeZone: string;
  location: string | null;
  meetingLink: string | null;
  firstName: string | null;
  closerName: string | null;
};

const hi = (a: AppointmentForText) => (a.firstName ? `Hi ${a.firstName}, ` : "Hi, ");
const withWhom = (a: AppointmentForText) => (a.closerName ? ` with ${a.closerName}` : "");
const where = (a: AppointmentForText) =>
  a.meetingLink ? ` Join: ${a.meetingLink}` : a.location ? ` Where: ${a.location}.` : "";
export const REPLY_OPTIONS = "Reply C to confirm, R to reschedule or N to cancel.";

/** Sent at once when the appointment is booked. */
export function confirmationText(a: AppointmentForText) {
  const v = appointmentVariables(a);
  return `${hi(a)}your solar appointment${withWhom(a)} is booked for ${v.appointmentDateTime}.${where(a)} ${REPLY_OPTIONS}`;
}

/** Which reminder is due: the day before (more than 3 h to go), else the one shortly before. */
export type ReminderKind = "day" | "soon";
export const REMINDER_LEADS: Record<ReminderKind, number> = { day: 24 * 3600_000, soon: 2 * 3600_000 };
export function reminderKindAt(startsAt: Date, now: Date): ReminderKind {
  return startsAt.getTime() - now.getTime() > 3 * 3600_000 ? "day" : "soon";
}

export function reminderText(a: AppointmentForText, kind: ReminderKind) {
  const v = appointmentVariables(a);
  return kind === "day"
    ? `${hi(a)}a reminder: your solar appointment${withWhom(a)} is on ${v.appointmentDateTime}.${where(a)} ${REPLY_OPTIONS}`
    : `${hi(a)}see you soon: your solar appointment${withWhom(a)} is at ${v.appointmentTime} today.${where(a)}`;
}

/**
 * The confirmation or a reminder by email, with the calendar invite attached (issue 28). Email replies are not read,
 * so it points to the text message for C / R / N instead of offering them.
 */
export function appointmentEmail(a: AppointmentForText, kind: ReminderKind | "booked") {
  const v = appointmentVariables(a);
  const subject =
    kind === "booked"
      ? `Booked: your solar appointment on ${v.appointmentDateTime}`
      : kind === "day"
        ? `Reminder: your solar appointment on ${v.appointmentDateTime}`
        : `Today at ${v.appointmentTime}: your solar appointment`;
  const what =
    kind === "booked"
      ? `is booked for ${v.appointmentDateTime}`
      : kind === "day"
        ? `is on ${v.appointmentDateTime}`
        : `is at ${v.appointmentTime} today`;
  const place = a.meetingLink ? `\n\nJoin: ${a.meetingLink}` : a.location ? `\n\nWhere: ${a.location}` : "";
  const text = `${hi(a)}your solar appointment${withWhom(a)} ${what}.${place}\n\nThe attached invite adds it to your calendar. To confirm, reschedule or cancel, reply C, R or N to our text message.`;
  return { subject, text };
}

/** A homeowner's one-word answer to a confirmation or reminder. */
export type AppointmentReply = "confirm" | "cancel" | "reschedule";
const REPLIES = new Map<string, AppointmentReply>([
  ["C", "confirm"],
  ["Y", "confirm"],
  ["CONFIRM", "confirm"],
  ["CONFIRMED", "confirm"],
  ["N", "cancel"],
  ["NO", "cancel"],
  ["R", "reschedule"],
  ["RESCHEDULE", "reschedule"],
]);
/**
 * The reply as an appointment answer, or null. Only a bare word counts ("C", "y!", " Reschedule "): "No thanks, I
 * rent" is a conversation, not an answer. YES is START (the pipeline's opt-in keyword) and CANCEL is an opt-out, so
 * neither is read here: the pipeline answers them before any processor sees them.
 */
export function parseAppointmentReply(body: string): AppointmentReply | null {
  const word = body
    .trim()
    .replace(/[^A-Za-z]+$/g, "")
    .toUpperCase();
  return REPLIES.get(word) ?? null;
}

/** What status a reply moves the appointment to. */
export const REPLY_STATUS: Record<AppointmentReply, AppointmentStatus> = {
  confirm: "confirmed",
  cancel: "cancelled",
  reschedule: "reschedule_requested",
};

/** The answer to a reply, through the pipeline like any text. */
export function replyAnswerText(a: AppointmentForText, reply: AppointmentReply) {
  const v = appointmentVariables(a);
  if (reply === "confirm")
    return `Thanks${a.firstName ? `, ${a.firstName}` : ""}! You're confirmed for ${v.appointmentDateTime}.`;
  if (reply === "cancel")
    return `Your appointment on ${v.appointmentDateTime} is cancelled. Reply R any time if you'd like a new one.`;
  return `No problem: ${a.closerName ?? "we"} will text you to find a new time.`;
}

/** Statuses an appointment can still happen in (reminders go out, replies act on it). */
export const UPCOMING: readonly AppointmentStatus[] = ["scheduled", "confirmed"];
export const STATUS_LABELS: Record<AppointmentStatus, string> = {
  scheduled: "Scheduled",
  confirmed: "Confirmed",
  reschedule_requested: "Asked to reschedule",
  completed: "Sat",
  no_show: "No-show",
  cancelled: "Cancelled",
};
export { APPOINTMENT_STATUSES };
