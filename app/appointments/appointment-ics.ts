// An appointment as an iCalendar invite (RFC 5545), attached to email reminders (issue 28) so the homeowner can put
// it in their calendar in one tap. Pure: the reminder task builds it, the tests read it back.

import type { AppointmentStatus } from "~/db/schema/appointments";

export type AppointmentForIcs = {
  id: number;
  startsAt: Date;
  durationMinutes: number;
  location: string | null;
  meetingLink: string | null;
  closerName: string | null;
  status: AppointmentStatus;
};

/** The invite's file as an email attachment. */
const ICS_FILENAME = "solar-appointment.ics";
const ICS_CONTENT_TYPE = "text/calendar; charset=utf-8; method=PUBLISH";

/** 20261127T153000Z: UTC, so no VTIMEZONE block is needed; calendars show it in the reader's own zone. */
const utcStamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** TEXT values escape backslash, semicolon and comma, and carry newlines as \n (RFC 5545 §3.3.11). */
const escapeText = (s: string) =>
  s.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");

/**
 * Lines longer than 75 octets are folded: CRLF and a space before each further piece (§3.1), never inside a UTF-8
 * sequence — a mail client that splits "é" in half shows garbage.
 */
function fold(line: string): string {
  const bytes = new TextEncoder();
  if (bytes.encode(line).length <= 75) return line;
  const out: string[] = [];
  let current = "";
  let size = 0;
  for (const ch of line) {
    const n = bytes.encode(ch).length;
    // The first line holds 75 octets; each continuation 74 after its leading space.
    if (size + n > (out.length ? 74 : 75)) {
      out.push(current);
      current = "";
      size = 0;
    }
    current += ch;
    size += n;
  }
  out.push(current);
  return out.join("\r\n ");
}

export function appointmentIcs(a: AppointmentForIcs, now: Date, organiser = "Helio"): string {
  const ends = new Date(a.startsAt.getTime() + a.durationMinutes * 60_000);
  const summary = a.closerName ? `Solar appointment with ${a.closerName}` : "Solar appointment";
  const description = [
    a.meetingLink ? `Join: ${a.meetingLink}` : null,
    "To confirm, reschedule or cancel, reply to our text.",
  ]
    .filter(Boolean)
    .join("\n");
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:-//${escapeText(organiser)}//Appointments//EN`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    // One UID per appointment: a second reminder's invite updates the same calendar entry instead of adding one.
    `UID:appointment-${a.id}@helio`,
    `DTSTAMP:${utcStamp(now)}`,
    `DTSTART:${utcStamp(a.startsAt)}`,
    `DTEND:${utcStamp(ends)}`,
    `SUMMARY:${escapeText(summary)}`,
    ...(a.location
      ? [`LOCATION:${escapeText(a.location)}`]
      : a.meetingLink
        ? [`LOCATION:${escapeText(a.meetingLink)}`]
        : []),
    ...(a.meetingLink ? [`URL:${a.meetingLink}`] : []),
    `DESCRIPTION:${escapeText(description)}`,
    `STATUS:${a.status === "confirmed" ? "CONFIRMED" : "TENTATIVE"}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(fold).join("\r\n") + "\r\n";
}

/** The invite as an email attachment (messages.attachments, decision 064). */
export function appointmentInvite(a: AppointmentForIcs, now: Date) {
  return { filename: ICS_FILENAME, contentType: ICS_CONTENT_TYPE, content: appointmentIcs(a, now) };
}
