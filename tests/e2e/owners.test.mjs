import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { atUrl, phone, tag } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

// Issue 27 (decision 044): a superuser gives a lead to a rep from the contact's page, with a note; the contact list
// shows the owner and filters by it; then the bulk "Set owner" on /contacts clears it. JS on and off.
const browser = sharedBrowser();
const toast = (page, text) => page.getByTestId("toast").getByText(text, { exact: true }).first();
const rep = `${E2E_USERS.user.first} ${E2E_USERS.user.last}`;

describeEachMode("contact owners", (mode) => {
  it("a superuser sets an owner on the contact page and the contact list shows it", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin);
    const last = tag("Own");
    const res = await context.request.post(BASE + "/api/contacts", {
      data: { firstName: "Olive", lastName: last, phone: `+1${phone()}` },
      headers: { Origin: BASE },
    });
    assert.equal(res.status(), 201, await res.text());
    const body = await res.json();
    const id = body.contact?.id ?? body.id;
    assert.ok(id, JSON.stringify(body));

    await page.goto(`/contacts/${id}`);
    await page.getByTestId("contact-owner").getByText("No owner").waitFor();
    await page.getByLabel("Assign to").selectOption({ label: rep });
    await page.getByLabel("Note", { exact: true }).fill("Booked Tuesday: over to Riley");
    await page.getByRole("button", { name: "Save owner" }).click();
    await toast(page, "Owner set").waitFor();
    await atUrl(page, `${BASE}/contacts/${id}`);
    await page.getByTestId("contact-owner").getByText(rep).waitFor();
    // The hand-off's note shows in the conversation as an internal note (decision 047).
    const handoff = page.getByTestId("thread-note").filter({ hasText: "Booked Tuesday: over to Riley" });
    await handoff.getByText("Hand-off note — not sent").waitFor();
    await handoff.getByText(`Owner set to ${rep}`).waitFor();

    // The list shows the owner, and the owner filter finds the contact.
    await page.goto(`/contacts?q=${encodeURIComponent(last)}`);
    const row = page.getByTestId("contact-row").filter({ hasText: last });
    await row.getByTestId("contact-owner").getByText(rep).waitFor();
    await page.getByLabel("Owner", { exact: true }).selectOption({ label: rep });
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/owner=\d+/);
    await page.getByTestId("contact-row").filter({ hasText: last }).waitFor();

    // Bulk: tick the row, "No owner", Set owner.
    await page.goto(`/contacts?q=${encodeURIComponent(last)}`);
    await page.getByLabel(`Select Olive ${last}`).check();
    await page.getByLabel("Set owner of the ticked contacts").selectOption({ label: "No owner" });
    await page.getByRole("button", { name: "Set owner", exact: true }).click();
    await toast(page, "Owner set on 1 contact").waitFor();
    await page
      .getByTestId("contact-row")
      .filter({ hasText: last })
      .getByTestId("contact-owner")
      .getByText("—")
      .waitFor();
    await context.close();
  });
});
