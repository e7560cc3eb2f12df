import { describe, expect, it } from "vitest";
import { appointmentIcs, type AppointmentForIcs } from "./appointment-ics";

const base: AppointmentForIcs = {
  id: 7,
  startsAt: new Date("2026-03-08T15:30:00Z"),
  durationMinutes: 60,
  location: null,
  meetingLink: null,
  closerName: null,
  status: "scheduled",
};
const now = new Date("2026-03-07T15:30:12.345Z");
/** Unfolded content lines (RFC 5545 §3.1: a CRLF followed by a space continues the line). */
const unfold = (ics: string) => ics.replace(/\r\n /g, "").split("\r\n");

describe("appointment .ics (issue 28)", () => {
  it("is one VEVENT in UTC with CRLF line ends, a stable UID and the end from the duration", () => {
    const ics = appointmentIcs({ ...base, status: "confirmed" }, now);
    expect(ics.endsWith("\r\n")).toBe(true);
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    expect(unfold(ics)).toEqual([
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Helio//Appointments//EN",
      "CALSCALE:GREGORIAN",
      "METHOD:PUBLISH",
      "BEGIN:VEVENT",
      "UID:appointment-7@helio",
      "DTSTAMP:20260307T153012Z",
      "DTSTART:20260308T153000Z",
      "DTEND:20260308T163000Z",
      "SUMMARY:Solar appointment",
      "DESCRIPTION:To confirm\\, reschedule or cancel\\, reply to our text.",
      "STATUS:CONFIRMED",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ]);
  });

  it("escapes text, puts a meeting link in URL and LOCATION, and folds long lines at 75 octets without splitting a character", () => {
    const link = "https://meet.example.com/" + "a".repeat(80);
    const ics = appointmentIcs(
      { ...base, closerName: "Zoë Ñúñez-Östergård; Senior, \\ Closer", meetingLink: link, durationMinutes: 45 },
      now,
    );
    for (const line of ics.split("\r\n")) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    const lines = unfold(ics);
    expect(lines).toContain("SUMMARY:Solar appointment with Zoë Ñúñez-Östergård\\; Senior\\, \\\\ Closer");
    expect(lines).toContain(`URL:${link}`);
    expect(lines).toContain(`LOCATION:${link}`);
    expect(lines).toContain(`DESCRIPTION:Join: ${link}\\nTo confirm\\, reschedule or cancel\\, reply to our text.`);
    expect(lines).toContain("DTEND:20260308T161500Z");
    // Folding never cut a UTF-8 sequence: every physical line decodes on its own.
    for (const line of ics.split("\r\n")) expect(line).not.toContain("\uFFFD");
    const multibyte = appointmentIcs({ ...base, closerName: "é".repeat(60) }, now);
    for (const line of multibyte.split("\r\n")) {
      const bytes = new TextEncoder().encode(line);
      expect(bytes.length).toBeLessThanOrEqual(75);
      expect(new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toBe(line);
    }
    expect(unfold(multibyte)).toContain(`SUMMARY:Solar appointment with ${"é".repeat(60)}`);
  });
});
