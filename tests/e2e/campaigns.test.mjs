import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { atUrl, phone, tag, toast, until } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

// The toast sits fixed at the bottom right, over the dialog's buttons while it shows (and it never leaves without
// JS): activate controls from the keyboard, as a user can.
const press = (locator) => locator.press("Enter");
async function clickTo(page, locator, url) {
  await press(locator);
  await atUrl(page, url);
}
const stepRow = (dialog, n) =>
  dialog.getByTestId("step-row").filter({ has: dialog.page().locator("span", { hasText: new RegExp(`^${n}$`) }) });

describeEachMode("campaigns", (mode) => {
  it("creates a campaign with picked contacts, adds / edits inline / deletes steps, starts, pauses and resumes it; the dashboard shows it", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const last = tag("Camp");
    for (let i = 0; i < 2; i++) {
      const res = await context.request.post(BASE + "/api/contacts", {
        data: { firstName: `Pat${i}`, lastName: last, phone: phone() },
        headers: { Origin: BASE },
      });
      assert.equal(res.status(), 201, await res.text());
    }
    const name = tag("Seq");

    // Create: the name is required; the picker's search keeps what was typed; both contacts picked.
    await page.goto("/campaigns");
    await clickTo(page, page.getByRole("link", { name: "Create Campaign" }), BASE + "/campaigns/new");
    const create = page.getByRole("dialog", { name: "Create Campaign" });
    await create.getByRole("button", { name: "Create Campaign" }).press("Enter");
    await create.getByText("Please enter a campaign name").waitFor();
    if (mode.javaScriptEnabled) await toast(page, "Error creating campaign").waitFor();
    await create.getByLabel("Name").fill(name);
    await create.getByLabel("Description").fill("Three-touch solar drip");
    await create.getByLabel("Search contacts to add").fill(last);
    await create.getByRole("button", { name: "Search" }).press("Enter");
    await create.getByText(`Select all 2 contacts matching “${last}”`).waitFor();
    assert.equal(await create.getByLabel("Name").inputValue(), name);
    const boxes = create.getByTestId("picker-list").getByRole("checkbox");
    assert.equal(await boxes.count(), 2);
    for (const box of await boxes.all()) await box.check();
    await clickTo(page, create.getByRole("button", { name: "Create Campaign" }), /\/campaigns\/\d+\/steps$/);
    await toast(page, "Campaign created").waitFor();

    // Steps: required fields, add three, edit the second inline, delete the third.
    const steps = page.getByRole("dialog", { name: `Steps — ${name}` });
    const add = steps.getByTestId("add-step-form");
    await add.getByLabel("Step name").fill("Intro");
    await add.getByRole("button", { name: "Add Step" }).press("Enter");
    await add.getByText("Please fill in all required fields").waitFor();
    if (mode.javaScriptEnabled) {
      await toast(page, "Error adding step").waitFor();
      await add.getByLabel("Content").fill("Hi {{firstName}}, ");
      await add.getByLabel("Insert variable").selectOption("company");
      assert.equal(await add.getByLabel("Content").inputValue(), "Hi {{firstName}}, {{company}}");
      await add.getByTestId("add-segments").getByText("29 characters · 1 SMS segment (GSM-7)").waitFor();
    } else {
      await add.getByLabel("Content").fill("Hi {{firstName}}, {{company}}");
    }
    await add.getByRole("button", { name: "Add Step" }).press("Enter");
    await toast(page, "Step added").waitFor();
    await stepRow(steps, 1).getByText("Immediate").waitFor();
    await stepRow(steps, 1).getByText("29 characters · 1 SMS segment (GSM-7)").waitFor();

    await add.getByLabel("Step name").fill("Follow");
    await add.getByLabel("Content").fill("<b>Still</b> interested?");
    await add.getByLabel("Delay days").fill("2");
    await add.getByLabel("Delay hours").fill("3");
    await add.getByRole("button", { name: "Add Step" }).press("Enter");
    await stepRow(steps, 2).getByText("2d 3h").waitFor();
    // User text is rendered as text.
    await stepRow(steps, 2).getByTestId("step-content").getByText("<b>Still</b> interested?").waitFor();

    await add.getByLabel("Step name").fill("Bye");
    await add.getByLabel("Type").selectOption("email");
    await add.getByLabel("Subject (email steps)").fill("Last chance");
    await add.getByLabel("Content").fill("Final note");
    await add.getByRole("button", { name: "Add Step" }).press("Enter");
    await stepRow(steps, 3).getByText("Email", { exact: true }).waitFor();

    await clickTo(page, steps.getByRole("link", { name: "Edit step 2" }), /\?edit=\d+$/);
    const editing = steps.getByTestId("step-row").filter({ has: page.locator("form") });
    await editing.getByLabel("Step name").fill("Follow up");
    await editing.getByLabel("Delay hours").fill("5");
    await clickTo(page, editing.getByRole("button", { name: "Save" }), /\/steps$/);
    await toast(page, "Step updated").waitFor();
    await stepRow(steps, 2).getByText("Follow up", { exact: true }).waitFor();
    await stepRow(steps, 2).getByText("2d 5h").waitFor();

    await clickTo(page, steps.getByRole("link", { name: "Delete step 3" }), /\?delete=\d+$/);
    const confirm = page.getByRole("dialog", { name: "Delete step" });
    await confirm.getByText("Are you sure you want to delete this step?").waitFor();
    await clickTo(page, confirm.getByRole("button", { name: "Delete" }), /\/steps$/);
    await toast(page, "Step deleted").waitFor();
    await until(async () => (await steps.getByTestId("step-row").count()) === 2);

    // The active switch posts the flipped value.
    const sw = stepRow(steps, 2).getByRole("switch", { name: "Active: step 2 Follow up" });
    assert.equal(await sw.getAttribute("aria-checked"), "true");
    await press(sw);
    await until(async () => (await stepRow(steps, 2).getByRole("switch").getAttribute("aria-checked")) === "false");

    // Start, pause, resume from the card.
    await page.goto("/campaigns");
    const card = page.getByRole("article", { name });
    await card.getByTestId("campaign-contacts").getByText("2", { exact: true }).waitFor();
    await card.getByText("draft", { exact: true }).waitFor();
    await card.getByRole("button", { name: `Start ${name}` }).press("Enter");
    await toast(page, "Campaign started").waitFor();
    await card.getByText("running", { exact: true }).waitFor();
    await card.getByRole("button", { name: `Pause ${name}` }).press("Enter");
    await toast(page, "Campaign paused").waitFor();
    await card.getByText("paused", { exact: true }).waitFor();
    await card.getByRole("button", { name: `Resume ${name}` }).press("Enter");
    await toast(page, "Campaign resumed").waitFor();
    await card.getByText("running", { exact: true }).waitFor();

    // Dashboard: the running campaign with its pulse dot, and the four stat cards.
    await page.goto("/");
    const row = page.getByTestId("dashboard-campaign").filter({ hasText: name });
    await row.getByTestId("pulse-dot").waitFor();
    await row.getByText("2 contacts").waitFor();
    for (const label of ["Messages Sent", "Delivered", "Responses", "Contacts"])
      await page.getByTestId("stat-cards").getByText(label, { exact: true }).waitFor();
    for (const label of ["Create Sequence", "Test Messages", "Manage Contacts", "View Analytics"])
      await page.getByRole("link", { name: new RegExp(label) }).waitFor();
    await page.getByText("Getting Started").waitFor();
    await context.close();
  });

  it("refuses to start a campaign without steps with the server's message", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const name = tag("Empty");
    const res = await context.request.post(BASE + "/api/campaigns", { data: { name }, headers: { Origin: BASE } });
    assert.equal(res.status(), 201, await res.text());
    await page.goto("/campaigns");
    const card = page.getByRole("article", { name });
    await card.getByRole("button", { name: `Start ${name}` }).press("Enter");
    await toast(page, "Error starting campaign").waitFor();
    await card.getByText("draft", { exact: true }).waitFor();
    await context.close();
  });
});

describeEachMode("a draft campaign's audience", (mode) => {
  it("'Select all' on a draft shows the audience enrolled at start, not 'Contacts 0' (issue 24)", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const last = `Aud${Date.now().toString(36)}${mode.javaScriptEnabled ? "j" : "n"}`;
    for (const first of ["Ann", "Bob"]) {
      const res = await context.request.post(BASE + "/api/contacts", {
        data: { firstName: first, lastName: last, phone: `+1${phone()}` },
        headers: { Origin: BASE },
      });
      assert.equal(res.status(), 201, await res.text());
    }
    const name = `Audience ${last}`;
    await page.goto("/campaigns/new");
    const create = page.getByRole("dialog", { name: "Create Campaign" });
    await create.getByLabel("Name").fill(name);
    await create.getByLabel("Search contacts to add").fill(last);
    await create.getByRole("button", { name: "Search" }).press("Enter");
    await create.getByText(`Select all 2 contacts matching “${last}”`).click();
    await create.getByRole("button", { name: "Create Campaign" }).click();
    await page.waitForURL(/\/campaigns\/\d+\/steps$/);
    await page.goto("/campaigns");
    const card = page.getByTestId("campaign-card").filter({ hasText: name });
    assert.equal((await card.getByTestId("campaign-contacts").innerText()).trim(), `Matching “${last}”, at start`);
    await context.close();
  });
});
