import { describe, expect, it } from "vitest";
import { appointments, linkClicks } from "~/db/schema";
import { createTestContact } from "../../../../tests/contact-factory";
import { measureD1, recordD1 } from "../../../../tests/d1-recorder";
import { call, createTestUser, db, loginAs } from "../../../../tests/factories";

// The contact page's D1 round trips (decision 062: each costs the Worker ~0.7 ms of CPU beside its query, and in
// production a network hop): its cards' reads ride in the page's one batch instead of a request each.
describe("the contact page's reads", () => {
  it("batches the Appointments, link-click and Savings cards with the page's own reads", async () => {
    const owner = await createTestUser();
    const closer = await createTestUser({ firstName: "Cora", lastName: "Closer" });
    const contact = await createTestContact(owner.id, { state: "CA" });
    const at = new Date("2026-12-02T18:00:00Z");
    const [appointment] = await db()
      .insert(appointments)
      .values({
        contactId: contact.id,
        closerUserId: closer.id,
        startsAt: at,
        timeZone: "America/Los_Angeles",
        location: "12 Sunny Lane",
        createdBy: owner.id,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: appointments.id });
    const url = "https://example.com/solar-quote";
    await db().insert(linkClicks).values({
      messageId: 1,
      linkIndex: 0,
      url,
      contactId: contact.id,
      clicks: 2,
      firstClickedAt: at,
      lastClickedAt: at,
    });
    const cookie = await loginAs(owner);
    // Restored after: a wrapper left installed would count every later file's statements twice.
    const restore = recordD1((await import("cloudflare:test")).env.DB);
    let page = "";
    const { statements, trips } = await measureD1(async () => {
      const res = await call(`/contacts/${contact.id}`, { cookie });
      expect(res.status).toBe(200);
      page = await res.text();
    }).finally(restore);
    // The cards show the batched rows as their own reads did (a batch returns rows as objects: two columns of one
    // name would collapse into one, and the closer's id once overwrote the appointment's).
    const shown = (text: string) => page.includes(text);
    expect(shown("With Cora Closer<!-- --> · 12 Sunny Lane")).toBe(true);
    expect(shown(`action="/contacts/${contact.id}/appointments/${appointment.id}"`)).toBe(true);
    expect(shown(url)).toBe(true);
    const tripOf = (table: RegExp) => [...new Set(statements.filter((s) => table.test(s.sql)).map((s) => s.trip))];
    const batch = tripOf(/from "pipeline_stages"/);
    expect(batch).toHaveLength(1);
    expect(tripOf(/from "appointments"/)).toEqual(batch);
    expect(tripOf(/from "link_clicks"/)).toEqual(batch);
    // The estimate's setting and every state's figures ride in the same batch (the contact's ZIP may name its state,
    // which only the app can tell, so the page reads the ≤ 52-row table instead of a trip after the contact).
    expect(tripOf(/from "solar_state_data"/)).toEqual(batch);
    expect(tripOf(/from "org_settings" where "org_settings"."key" in/)).toEqual(batch);
    // The session; the sidebar's counts; the viewer's scope setting; the page's batch beside the contact's own read;
    // the thread's notes. Ten before the cards rode along, seven while the estimate took a trip of its own.
    expect(trips).toBe(6);
  });
});
