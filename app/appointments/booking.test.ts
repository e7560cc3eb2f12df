import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { appointments, contacts } from "~/db/schema";
import { messagingConfig } from "~/messaging/messaging-config.server";
import { call, createTestUser, db } from "../../tests/factories";
import { createTestContact } from "../../tests/contact-factory";
import { recordingQueue } from "../../tests/messaging-harness";
import { bookAppointment } from "./book-appointment.server";
import { bookingToken, verifyBookingToken } from "./booking-token.server";
import { loadBookingPage } from "./load-booking-page.server";
import { setAvailability } from "./set-availability.server";

const WEEKDAYS_9_TO_5 = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, startMinute: 540, endMinute: 1020 }));

describe("the booking link (decision 058)", () => {
  it("names one contact, cannot be forged for another, and stops working after 14 days", async () => {
    const now = new Date("2026-11-30T12:00:00Z");
    const token = await bookingToken("secret", 42, now);
    expect(await verifyBookingToken("secret", token, now)).toBe(42);
    expect(await verifyBookingToken("secret", token.replace(/^42\./, "43."), now)).toBeNull();
    expect(await verifyBookingToken("another secret", token, now)).toBeNull();
    expect(await verifyBookingToken("secret", token, new Date(now.getTime() + 15 * 86_400_000))).toBeNull();
    expect(await verifyBookingToken(null, token, now)).toBeNull();
  });

  it("offers hour slots in the owner's weekly hours, in the homeowner's time, none too soon and none already booked", async () => {
    const closer = await createTestUser({ firstName: "Sam", lastName: "Ortiz" });
    const contact = await createTestContact(closer.id, { firstName: "Rosa", state: "NY" });
    await db()
      .update(contacts)
      .set({ ownerUserId: closer.id, timeZone: "America/New_York" })
      .where(eq(contacts.id, contact.id));
    await setAvailability(db(), closer.id, { timeZone: "America/Chicago", days: WEEKDAYS_9_TO_5 });
    // Monday 2026-11-30, 08:00 in Chicago: the first slot is 10:00 CST (two hours' lead), 11:00 CST is taken.
    const now = new Date("2026-11-30T14:00:00Z");
    await bookAppointment(
      { db: db(), queue: recordingQueue(), now },
      {
        contactId: contact.id,
        startsAt: new Date("2026-11-30T17:00:00Z"),
        timeZone: "America/New_York",
        closerUserId: closer.id,
        location: null,
        meetingLink: null,
        note: null,
      },
      { userId: closer.id, role: closer.role, ipAddress: null },
    );
    const page = await loadBookingPage(db(), contact.id, now);
    expect(page?.closer).toEqual({ id: closer.id, name: "Sam Ortiz" });
    const monday = page!.slots.filter((s) => s.date === "Monday, November 30").map((s) => s.time);
    expect(monday).toEqual(["11:00 AM EST", "1:00 PM EST", "2:00 PM EST", "3:00 PM EST", "4:00 PM EST", "5:00 PM EST"]);
    expect(page!.slots.some((s) => s.date.startsWith("Saturday") || s.date.startsWith("Sunday"))).toBe(false);
    expect(page!.slots.at(-1)!.at).toBeLessThanOrEqual(now.getTime() + 7 * 86_400_000);
  });

  it("through the Worker: the page lists the slots, a pick books it (Appointment set, a confirmation), a taken one is refused, a forged link is a 404", async () => {
    const closer = await createTestUser({ firstName: "Dana", lastName: "Reyes" });
    const contact = await createTestContact(closer.id, { firstName: "Lee", state: "AZ" });
    await db().update(contacts).set({ ownerUserId: closer.id }).where(eq(contacts.id, contact.id));
    await setAvailability(db(), closer.id, {
      timeZone: "America/Phoenix",
      days: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, startMinute: 0, endMinute: 1440 })),
    });
    const token = await bookingToken(messagingConfig(env).unsubscribeSecret!, contact.id, new Date());
    const page = await call(`/book/${token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Book this time");
    const slot = /name="slot"[^>]*value="(\d+)"/.exec(html)![1];

    const book = () =>
      call(`/book/${token}`, {
        method: "POST",
        body: new URLSearchParams({ slot }),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
    const first = await book();
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("You&#x27;re booked");
    const [a] = await db().select().from(appointments).where(eq(appointments.contactId, contact.id));
    expect(a).toMatchObject({
      closerUserId: closer.id,
      status: "scheduled",
      note: "Booked by the homeowner from the booking link",
    });
    expect(a.startsAt.getTime()).toBe(Number(slot));
    const [c] = await db().select({ stage: contacts.stage }).from(contacts).where(eq(contacts.id, contact.id));
    expect(c.stage).toBe("appointment_set");

    const again = await book();
    expect(again.status).toBe(409);
    await again.arrayBuffer();
    const forged = await call(`/book/${token.replace(/^\d+\./, `${contact.id + 1}.`)}`);
    expect(forged.status).toBe(404);
    await forged.arrayBuffer();
  });
});
