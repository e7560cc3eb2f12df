import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, PHONE_WINDOW, sharedBrowser, signedInPage } from "./browser.mjs";
import { assertFitsWidth, bookFromLink, phone, tag, toast } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

// Issue 28 item 2 (decision 055): a setter books the closer's visit from the lead's page on a 390 px phone, JS on and
// off; the lead moves to Appointment set, the confirmation quotes the homeowner's time, and marking it sat moves on.
const browser = sharedBrowser();

describeEachMode("appointments", (mode) => {
  it("books from the contact page, confirms by text in the homeowner's time, and marks it sat", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user, PHONE_WINDOW);
    const last = tag("Appt");
    const res = await context.request.post(BASE + "/api/contacts", {
      data: { firstName: "Rosa", lastName: last, phone: `+1${phone()}`, state: "NY" },
      headers: { Origin: BASE },
    });
    assert.equal(res.status(), 201, await res.text());
    const body = await res.json();
    const id = body.contact?.id ?? body.id;

    // Three days ahead, 10:00 in New York.
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const startsAt = new Date(`${day}T12:00:00Z`);
    const zone = "America/New_York";
    const local = new Intl.DateTimeFormat("en-US", { timeZone: zone, hour: "numeric", hour12: false }).format(startsAt);
    const instant = new Date(startsAt.getTime() + (10 - Number(local)) * 3_600_000);
    const when = `${new Intl.DateTimeFormat("en-US", { timeZone: zone, weekday: "long", month: "long", day: "numeric" }).format(instant)} at ${new Intl.DateTimeFormat("en-US", { timeZone: zone, hour: "numeric", minute: "2-digit", timeZoneName: "short" }).format(instant)}`;

    await page.goto(`/contacts/${id}`);
    const form = page.locator("form", { has: page.getByRole("button", { name: "Book appointment" }) });
    await form.getByLabel("Date and time").fill(`${day}T10:00`);
    await form.getByLabel("Time zone").selectOption(zone);
    await form.getByLabel("Place").fill("At the home");
    await assertFitsWidth(page, 390, "the contact page with the Appointments card");
    await form.getByRole("button", { name: "Book appointment" }).click();
    await toast(page, "Appointment booked").waitFor();

    const booked = page.getByTestId("appointment").filter({ hasText: when });
    await booked.getByText("Scheduled", { exact: true }).waitFor();
    await page.getByTestId("contact-stage").getByText("Appointment set", { exact: true }).waitFor();
    // The confirmation went into the thread through the pipeline, in the homeowner's time.
    await page.getByText(`your solar appointment with`, { exact: false }).filter({ hasText: when }).first().waitFor();

    await booked.getByRole("button", { name: `Sat ${when}` }).click();
    await toast(page, "Appointment: Sat").waitFor();
    await page.getByTestId("appointment").filter({ hasText: when }).getByText("Sat", { exact: true }).waitFor();
    await page.getByTestId("contact-stage").getByText("Sat", { exact: true }).waitFor();
    await context.close();
  });

  it("a closer sets booking hours; the homeowner books from the link without logging in; the lead moves to Appointment set", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user, PHONE_WINDOW);
    await page.goto("/account/availability");
    const form = page.getByTestId("availability-form");
    await form.getByLabel("Time zone").selectOption("America/Phoenix");
    for (const day of ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]) {
      await form.getByRole("checkbox", { name: day }).check();
      await form.getByLabel(`${day} from`).fill("00:00");
      await form.getByLabel(`${day} to`).fill("23:00");
    }
    await assertFitsWidth(page, 390, "Booking hours");
    await form.getByRole("button", { name: "Save hours" }).click();
    await toast(page, "Booking hours saved").waitFor();

    const last = tag("Book");
    const res = await context.request.post(BASE + "/api/contacts", {
      data: { firstName: "Lee", lastName: last, phone: `+1${phone()}`, state: "AZ" },
      headers: { Origin: BASE },
    });
    assert.equal(res.status(), 201, await res.text());
    const body = await res.json();
    const id = body.contact?.id ?? body.id;
    await page.goto(`/contacts/${id}`);
    const link = await page.getByLabel("Booking link").inputValue();

    // The homeowner: another browser, no session.
    await bookFromLink(browser(), mode, BASE, link);

    await page.goto(`/contacts/${id}`);
    await page.getByTestId("contact-stage").getByText("Appointment set", { exact: true }).waitFor();
    await page.getByTestId("appointment").getByText("Scheduled", { exact: true }).waitFor();
    await context.close();
  });
});
