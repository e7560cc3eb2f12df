import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, PHONE_WINDOW, sharedBrowser, signedInPage } from "./browser.mjs";
import { assertFitsWidth, tag, toast } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

// Branded links (issue 29 item 3, decision 068): the superuser's link settings on Organisation, and a sequence rule
// that starts on a click, on a 390 px phone, JS on and off. The redirect and the counts are unit-tested through the
// real Worker (app/messaging/tracked-links.test.ts).
const browser = sharedBrowser();

describeEachMode("tracked links", (mode) => {
  it("the link domain is checked and saved beside tracking, then cleared", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin, PHONE_WINDOW);
    await page.goto("/organisation");
    const form = page.getByTestId("links");
    await form.getByLabel("Track links in texts").waitFor();
    assert.equal(await form.getByLabel("Track links in texts").isChecked(), true, "tracking is on by default");
    await form.getByLabel("Link domain").fill("https://go.sun.example/x");
    await form.getByRole("button", { name: "Save link settings" }).click();
    await form.getByText(/Link domain: A host name you point at Helio/).waitFor();
    assert.equal(await form.getByLabel("Link domain").inputValue(), "https://go.sun.example/x");

    await form.getByLabel("Link domain").fill("Go.Sun.Example");
    await form.getByRole("button", { name: "Save link settings" }).click();
    await toast(page, "Links in texts are tracked").waitFor();
    await page.goto("/organisation");
    assert.equal(await page.getByTestId("links").getByLabel("Link domain").inputValue(), "go.sun.example");
    await assertFitsWidth(page, 390, "Organisation");

    // Other tests send texts on this server: back to Helio's own address.
    await page.getByTestId("links").getByLabel("Link domain").fill("");
    await page.getByTestId("links").getByRole("button", { name: "Save link settings" }).click();
    await toast(page, "Links in texts are tracked").waitFor();
    await context.close();
  });

  it("a rule starts a sequence when a contact clicks a link in another one", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin, PHONE_WINDOW);
    const [promo, followUp] = [tag("Promo"), tag("Clicked")];
    for (const name of [promo, followUp]) {
      const res = await context.request.post(BASE + "/api/campaigns", { data: { name }, headers: { Origin: BASE } });
      assert.equal(res.status(), 201, await res.text());
    }
    const name = tag("Click rule");
    await page.goto("/lead-triggers");
    const form = page.getByTestId("lead-trigger-form");
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("When").selectOption({ label: "A contact clicks a link" });
    await form.getByLabel("Link clicked in").selectOption({ label: promo });
    await form.getByLabel("Sequence to start").selectOption({ label: `${followUp} (draft)` });
    await form.getByRole("button", { name: "Create rule" }).click();
    await toast(page, "Trigger rule created").waitFor();
    const rule = page.getByTestId("lead-trigger-rule").filter({ hasText: name });
    await rule.getByText(`Clicks a link in ${promo} → start ${followUp}`).waitFor();
    await rule.getByRole("button", { name: `Delete ${name}` }).click();
    await toast(page, "Trigger rule deleted").waitFor();
    await context.close();
  });
});
