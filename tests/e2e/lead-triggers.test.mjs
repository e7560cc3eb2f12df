import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, PHONE_WINDOW, sharedBrowser, signedInPage } from "./browser.mjs";
import { assertFitsWidth, tag, toast } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

// Speed to lead (issue 26): a superuser creates a lead trigger rule on its screen, on a 390 px phone, JS on and off.
const browser = sharedBrowser();

describeEachMode("lead triggers", (mode) => {
  it("creates a rule (the name error first), lists it, disables and deletes it, on a phone", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin, PHONE_WINDOW);
    const sequence = tag("Lead seq");
    const res = await context.request.post(BASE + "/api/campaigns", {
      data: { name: sequence },
      headers: { Origin: BASE },
    });
    assert.equal(res.status(), 201, await res.text());
    const name = tag("Rule");

    await page.goto("/lead-triggers");
    await page.getByRole("heading", { name: "Lead triggers" }).first().waitFor();
    const form = page.getByTestId("lead-trigger-form");
    // Only spaces pass the browser's `required`: the server answers beside the field, and keeps what was typed.
    await form.getByLabel("Name").fill("   ");
    await form.getByLabel("Lead source").fill("EnergySage");
    await form.getByLabel("Sequence to start").selectOption({ label: `${sequence} (draft)` });
    await form.getByRole("button", { name: "Create rule" }).click();
    await form.getByText("Please enter a name for the rule").waitFor();
    assert.equal(await form.getByLabel("Lead source").inputValue(), "EnergySage");

    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Sequence to start").selectOption({ label: `${sequence} (draft)` });
    await form.getByRole("button", { name: "Create rule" }).click();
    await toast(page, "Trigger rule created").waitFor();
    const rule = page.getByTestId("lead-trigger-rule").filter({ hasText: name });
    await rule.getByText(`New lead from EnergySage → start ${sequence}`).waitFor();
    await rule.getByText("Active", { exact: true }).waitFor();
    // Fits the phone: nothing wider than the viewport.
    await assertFitsWidth(page, 390, "Lead triggers");

    await rule.getByRole("button", { name: `Disable ${name}` }).click();
    await toast(page, "Trigger rule disabled").waitFor();
    await rule.getByText("Inactive", { exact: true }).waitFor();
    await rule.getByRole("button", { name: `Delete ${name}` }).click();
    await toast(page, "Trigger rule deleted").waitFor();
    await page.getByTestId("lead-trigger-rule").filter({ hasText: name }).waitFor({ state: "detached" });
    await context.close();
  });
});
