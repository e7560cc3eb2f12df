// Issue 24, item 11: with JavaScript on, a form that saved empties itself (Remix keeps the same DOM, so the typed
// values stayed and invited a second save); a form whose save failed keeps what was typed. JS on and off.
import assert from "node:assert/strict";
import { it } from "node:test";
import { describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { tag, toast } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

describeEachMode("forms after a save", (mode) => {
  it("a new alert profile leaves its form empty (keyword banks share RecordForm); a refused one keeps its values", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin);
    await page.goto("/smart-alerts?tab=profiles");
    const form = page.getByTestId("profile-form");
    const name = tag("Profile ");
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Keywords").fill("roof, battery");
    await form.getByLabel("Email").fill("not-an-email");
    // Past the browser's own type="email" check, so the server's refusal is what answers.
    await form.evaluate((f) => (f.noValidate = true));
    await form.getByRole("button", { name: "Create Profile" }).click();
    await form
      .getByText(/valid email/i)
      .first()
      .waitFor();
    assert.equal(await form.getByLabel("Name").inputValue(), name, "a refused save keeps what was typed");
    await form.getByLabel("Email").fill(`closer.${tag()}@example.com`);
    await form.getByRole("button", { name: "Create Profile" }).click();
    await page.getByTestId("profile-card").filter({ hasText: name }).waitFor();
    assert.equal(await form.getByLabel("Name").inputValue(), "");
    assert.equal(await form.getByLabel("Keywords").inputValue(), "");
    await context.close();
  });

  it("a saved template leaves the Create Template form empty", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    await page.goto("/testing");
    const form = page.getByTestId("template-form");
    const name = tag("Template ");
    await form.getByLabel("Template name").fill(name);
    await form.getByLabel("Template content").fill("Hi {{firstName}}, your solar estimate is ready.");
    await form.getByRole("button", { name: "Save Template" }).click();
    await toast(page, "Template created").waitFor();
    assert.equal(await page.getByTestId("template-form").getByLabel("Template name").inputValue(), "");
    await context.close();
  });
});
