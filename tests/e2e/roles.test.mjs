import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { atUrl, phone, tag, toast } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

// Issue 27 item 6 (decision 048): rep A does not see rep B's contact on /contacts, and its URL is the not-found
// page; once a superuser turns on "Every user sees all contacts", A sees it. JS on and off.
const browser = sharedBrowser();
const repB = `${E2E_USERS.repB.first} ${E2E_USERS.repB.last}`;

/** The superuser's organisation setting, through the screen. */
async function setSeeAll(page, on) {
  await page.goto("/organisation");
  const form = page.getByTestId("contact-visibility");
  const box = form.getByLabel("Every user sees all contacts");
  if (on) await box.check();
  else await box.uncheck();
  await form.getByRole("button", { name: "Save contact settings" }).click();
  await toast(
    page,
    on ? "Every user now sees all contacts" : "Users now see their own and unassigned contacts",
  ).waitFor();
}

describeEachMode("roles: a rep sees their own and unassigned contacts", (mode) => {
  it("rep A cannot see or open rep B's contact until a superuser lets every user see all", async () => {
    const admin = await signedInPage(browser(), mode, E2E_USERS.admin);
    const last = tag("Role");
    const res = await admin.context.request.post(BASE + "/api/contacts", {
      data: { firstName: "Bea", lastName: last, phone: `+1${phone()}` },
      headers: { Origin: BASE },
    });
    assert.equal(res.status(), 201, await res.text());
    const { id } = await res.json();
    // The superuser gives it to rep B from the contact's page.
    await admin.page.goto(`/contacts/${id}`);
    await admin.page.getByLabel("Assign to").selectOption({ label: repB });
    await admin.page.getByRole("button", { name: "Save owner" }).click();
    await toast(admin.page, "Owner set").waitFor();
    await atUrl(admin.page, `${BASE}/contacts/${id}`);

    const a = await signedInPage(browser(), mode, E2E_USERS.user);
    try {
      await a.page.goto(`/contacts?q=${encodeURIComponent(last)}`);
      await a.page.getByTestId("contacts-empty").waitFor();
      assert.equal(await a.page.getByTestId("contact-row").count(), 0);
      const opened = await a.page.goto(`/contacts/${id}`);
      assert.equal(opened.status(), 404);
      await a.page.getByText("Not found", { exact: true }).waitFor();
      await a.page.getByText("Contact not found").waitFor();

      await setSeeAll(admin.page, true);
      await a.page.goto(`/contacts?q=${encodeURIComponent(last)}`);
      await a.page.getByTestId("contact-row").filter({ hasText: last }).waitFor();
      const now = await a.page.goto(`/contacts/${id}`);
      assert.equal(now.status(), 200);
      await a.page.getByRole("heading", { name: `Bea ${last}` }).waitFor();
    } finally {
      await setSeeAll(admin.page, false);
      await a.context.close();
      await admin.context.close();
    }
  });
});
