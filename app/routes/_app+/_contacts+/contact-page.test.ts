import { describe, expect, it } from "vitest";
import { createTestContact } from "../../../../tests/contact-factory";
import { measureD1, recordD1 } from "../../../../tests/d1-recorder";
import { call, createTestUser, loginAs } from "../../../../tests/factories";

// The contact page's D1 round trips (decision 062: each costs the Worker ~0.7 ms of CPU beside its query, and in
// production a network hop): its cards' reads ride in the page's one batch instead of a request each.
describe("the contact page's reads", () => {
  it("batches the Appointments and link-click cards with the page's own reads; the savings estimate is one trip", async () => {
    const owner = await createTestUser();
    const contact = await createTestContact(owner.id, { state: "CA" });
    const cookie = await loginAs(owner);
    // Restored after: a wrapper left installed would count every later file's statements twice.
    const restore = recordD1((await import("cloudflare:test")).env.DB);
    const { statements, trips } = await measureD1(async () => {
      const res = await call(`/contacts/${contact.id}`, { cookie });
      expect(res.status).toBe(200);
      await res.text();
    }).finally(restore);
    const tripOf = (table: RegExp) => [...new Set(statements.filter((s) => table.test(s.sql)).map((s) => s.trip))];
    const page = tripOf(/from "pipeline_stages"/);
    expect(page).toHaveLength(1);
    expect(tripOf(/from "appointments"/)).toEqual(page);
    expect(tripOf(/from "link_clicks"/)).toEqual(page);
    // The estimate has the contact's own figures from the page: the setting and the state's row together.
    const savings = tripOf(/from "solar_state_data"/);
    expect(savings).toHaveLength(1);
    expect(tripOf(/from "org_settings" where "org_settings"."key" in/)).toContain(savings[0]);
    // The session; the sidebar's counts; the viewer's scope setting; the page's batch beside the contact's own read;
    // the thread's notes; the estimate. Ten before the cards rode along and the estimate took the contact it had.
    expect(trips).toBe(7);
  });
});
