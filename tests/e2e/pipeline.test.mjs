import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, PHONE_WINDOW, sharedBrowser, signedInPage } from "./browser.mjs";
import { assertFitsWidth, atUrl, phone, tag, toast, until } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

// Issue 28 item 1 (decision 053): a rep moves a lead along the pipeline from its page and finds it on the board and in
// the list filtered by stage — on a 390 px phone, JS on and off.
const browser = sharedBrowser();

describeEachMode("pipeline stages", (mode) => {
  it("moves a lead to Appointment set from its page, then to Sold in bulk; the board and the filter follow", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user, PHONE_WINDOW);
    const last = tag("Stage");
    const res = await context.request.post(BASE + "/api/contacts", {
      data: { firstName: "Sunny", lastName: last, phone: `+1${phone()}` },
      headers: { Origin: BASE },
    });
    assert.equal(res.status(), 201, await res.text());
    const body = await res.json();
    const id = body.contact?.id ?? body.id;

    await page.goto(`/contacts/${id}`);
    await page.getByTestId("contact-stage").getByText("New", { exact: true }).waitFor();
    await page.getByLabel("Move to").selectOption({ label: "Appointment set" });
    await page.getByRole("button", { name: "Save stage" }).click();
    await toast(page, "Moved to Appointment set").waitFor();
    await atUrl(page, `${BASE}/contacts/${id}`);
    await page.getByTestId("contact-stage").getByText("Appointment set", { exact: true }).waitFor();

    await page.goto("/contacts/pipeline");
    const column = page.locator('[data-testid="pipeline-stage"][data-stage="appointment_set"]');
    await column.getByRole("link", { name: `Sunny ${last}` }).waitFor();
    await assertFitsWidth(page, 390, "the pipeline board");

    // The list's stage filter (a plain GET form) finds it; another stage does not.
    await page.goto(`/contacts?q=${encodeURIComponent(last)}`);
    await page.getByLabel("Stage", { exact: true }).selectOption({ label: "Appointment set" });
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/stage=appointment_set/);
    await page.getByTestId("contact-row").filter({ hasText: last }).waitFor();
    await page.goto(`/contacts?stage=sold&q=${encodeURIComponent(last)}`);
    await page.getByTestId("contacts-empty").waitFor();

    // Bulk: tick the row, "Sold", Set stage — the board then counts it there.
    await page.goto(`/contacts?q=${encodeURIComponent(last)}`);
    await page.getByLabel(`Select Sunny ${last}`).check();
    await page.getByLabel("Set stage of the ticked contacts").selectOption({ label: "Sold" });
    await page.getByRole("button", { name: "Set stage", exact: true }).click();
    await toast(page, "1 contact moved to Sold").waitFor();
    await page.goto("/contacts/pipeline");
    await page
      .locator('[data-testid="pipeline-stage"][data-stage="sold"]')
      .getByRole("link", { name: `Sunny ${last}` })
      .waitFor();
    await context.close();
  });

  it("tags a lead from its page (any case, once), refuses a bad tag beside nothing lost, and removes it", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user, PHONE_WINDOW);
    const tessLast = tag("Tag");
    const res = await context.request.post(BASE + "/api/contacts", {
      data: { firstName: "Tess", lastName: tessLast, phone: `+1${phone()}` },
      headers: { Origin: BASE },
    });
    assert.equal(res.status(), 201, await res.text());
    const body = await res.json();
    const id = body.contact?.id ?? body.id;
    await page.goto(`/contacts/${id}`);
    await page.getByLabel("Add a tag").fill("Roof  Replaced");
    await page.getByRole("button", { name: "Add tag" }).click();
    await toast(page, "Tagged “roof replaced”").waitFor();
    await page.getByTestId("contact-tags").getByText("roof replaced", { exact: true }).waitFor();
    await page.getByLabel("Add a tag").fill("ROOF replaced");
    await page.getByRole("button", { name: "Add tag" }).click();
    await toast(page, "Already tagged “roof replaced”").waitFor();
    await page.getByLabel("Add a tag").fill("<b>hot</b>");
    await page.getByRole("button", { name: "Add tag" }).click();
    await toast(page, "Tag not saved").waitFor();
    await assertFitsWidth(page, 390, "the contact page with tags");
    // The list's tag filter (a plain GET form) finds it, in any case.
    await page.goto(`/contacts?q=${encodeURIComponent(tessLast)}`);
    await page.getByLabel("Tag", { exact: true }).fill("ROOF replaced");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/tag=ROOF/);
    await page.getByTestId("contact-row").filter({ hasText: "Tess" }).waitFor();
    await assertFitsWidth(page, 390, "the contacts list with its filters");
    await page.goto(`/contacts?tag=${encodeURIComponent("no such tag")}`);
    await page.getByText("No contacts with the tag “no such tag”").waitFor();
    await page.goto(`/contacts/${id}`);
    await page.getByRole("button", { name: "Remove roof replaced" }).click();
    await toast(page, "Tag “roof replaced” removed").waitFor();
    await page.getByText("No tags yet.").waitFor();
    await context.close();
  });

  it("saves a segment (a bad number of days refused), sees who fits it, and broadcasts to it through the pre-send check", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user, PHONE_WINDOW);
    const company = tag("Segco");
    for (const [first, co] of [
      ["Ann", company],
      ["Bob", company],
      ["Cy", "Other Co"],
    ]) {
      const res = await context.request.post(BASE + "/api/contacts", {
        data: { firstName: first, lastName: tag("Seg"), phone: `+1${phone()}`, company: co },
        headers: { Origin: BASE },
      });
      assert.equal(res.status(), 201, await res.text());
    }
    await page.goto("/contacts");
    await page.getByRole("link", { name: "Segments" }).click();
    await atUrl(page, `${BASE}/contacts/segments`);
    const form = page.getByTestId("segment-form");
    await form.getByLabel("Field 1").selectOption({ label: "Company" });
    await form.getByLabel("Test 1").selectOption({ label: "contains" });
    await form.getByLabel("Value 1").fill(company);
    const name = `Buyers ${company}`;
    await form.getByLabel("Name").fill(name);
    // Days that are not a number: refused beside the field, what was typed kept (JS off too).
    await form.getByLabel("Last message").selectOption({ label: "no message in the last" });
    await form.getByLabel("Days").fill("soon");
    await form.getByRole("button", { name: "Save segment" }).click();
    await page.getByText("Enter the number of days").waitFor();
    assert.equal(await page.getByTestId("segment-form").getByLabel("Value 1").inputValue(), company);
    await page.getByTestId("segment-form").getByLabel("Last message").selectOption({ label: "Any time" });
    await page.getByTestId("segment-form").getByRole("button", { name: "Save segment" }).click();
    await toast(page, "Segment saved").waitFor();
    await page.waitForURL(/\/contacts\/segments\/\d+$/);
    assert.equal(await page.getByTestId("segment-count").textContent(), "2");
    await page.getByTestId("segment-members").getByRole("link", { name: /^Ann / }).waitFor();
    assert.match(await page.getByTestId("segment-summary").textContent(), new RegExp(`Company contains “${company}”`));
    await assertFitsWidth(page, 390, "a segment's page");

    // Broadcast to it: the picker has it chosen; the check judges its contacts now.
    await page.getByRole("link", { name: "Broadcast" }).click();
    await page.waitForURL(/tab=broadcast&segmentId=\d+/);
    await page.getByLabel("Message", { exact: true }).fill("Hi {{firstName}}, your solar numbers are ready.");
    assert.equal(await page.getByTestId("picker-segment").locator("option:checked").textContent(), name);
    await page.getByRole("button", { name: "Review and send" }).click();
    await page.getByTestId("presend-check").waitFor();
    assert.equal(await page.getByTestId("check-recipients").textContent(), "2");
    await Promise.all([page.waitForURL(/\/testing\/sends\/\d+$/), page.getByTestId("confirm-send").click()]);
    await page.getByText("SMS to 2 recipients").waitFor();
    await assertFitsWidth(page, 390, "the broadcast's progress");
    await context.close();
  });

  it("a superuser adds a stage, moves it up, renames it and deletes it", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin, PHONE_WINDOW);
    const name = `Survey ${tag()}`;
    await page.goto("/pipeline-stages");
    const form = page.getByTestId("stage-form");
    await form.getByLabel("Name").fill(name);
    await form.getByRole("button", { name: "Add stage" }).click();
    await toast(page, `Stage “${name}” added`).waitFor();
    const row = page.getByTestId("pipeline-stage-row").filter({ has: page.locator(`input[value="${name}"]`) });
    await row.waitFor();
    await assertFitsWidth(page, 390, "Pipeline stages");
    await row.getByRole("button", { name: `Up ${name}` }).click();
    await toast(page, "Stage moved").waitFor();
    await row.getByRole("textbox").fill(`${name} 2`);
    await row.getByRole("button", { name: "Rename" }).click();
    await toast(page, `Stage renamed to “${name} 2”`).waitFor();
    const renamed = page.getByTestId("pipeline-stage-row").filter({ has: page.locator(`input[value="${name} 2"]`) });
    await renamed.getByRole("button", { name: `Delete ${name} 2` }).click();
    await toast(page, "Stage deleted").waitFor();
    await until(async () => (await page.locator(`input[value="${name} 2"]`).count()) === 0, "the stage gone");
    await context.close();
  });
});
