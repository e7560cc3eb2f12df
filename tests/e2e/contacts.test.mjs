import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { it } from "node:test";
import { BASE, describeEachMode, PHONE_WINDOW, sharedBrowser, signedInPage } from "./browser.mjs";
import { assertFitsWidth, atUrl, phone, tag, toast } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

const e164 = (digits) => `+1${digits}`;
const blocks = new Set();
/** An area code and exchange (6 digits) not handed out before in this run. */
function freshBlock() {
  for (;;) {
    const b = phone().slice(0, 6);
    if (!blocks.has(b) && !b.endsWith("555")) return (blocks.add(b), b); // 555-01XX is fictional
  }
}
const pretty = (d) => `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;

/** Clicks and waits until the address bar matches (a full URL string or a RegExp). */
async function clickTo(page, locator, url) {
  await locator.click();
  await atUrl(page, url);
}

/** Opens Upload CSV and uploads `text` as the file: the import's Match columns step comes next (returned). */
async function uploadCsv(page, text, name = "leads.csv") {
  await page.goto("/contacts/upload");
  const dialog = page.getByRole("dialog", { name: "Upload CSV" });
  await dialog.locator('input[type="file"]').setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
  await clickTo(page, dialog.getByRole("button", { name: "Upload and preview" }), /\/contacts\/imports\/\d+$/);
  return page.getByRole("dialog", { name: "Match columns" });
}

/** The Match columns step with its guesses kept: Continue to the preview (the same address, now the preview). */
async function continueMatch(page) {
  const match = page.getByRole("dialog", { name: "Match columns" });
  await match.getByRole("button", { name: "Continue to preview" }).click();
  await page.getByRole("dialog", { name: "Preview import" }).waitFor();
}

// A row whose name cell has the text: matching the whole row would also find words such as "cannot".
const rowOf = (page, text) =>
  page.getByTestId("contact-row").filter({ has: page.locator("td:first-child", { hasText: text }) });

/** Searches and waits until the list shows that search's results (a document load without JS, a fetch with it). */
async function search(page, q) {
  const box = page.getByRole("searchbox", { name: "Search contacts" });
  await box.fill(q);
  await box.press("Enter");
  await page.getByTestId("contact-count").getByText(`Results for “${q}”`, { exact: true }).waitFor();
}

describeEachMode("contacts", (mode) => {
  it("adds (with the required-fields error first), edits, searches and deletes a contact", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const last = tag("Add");
    const digits = phone();
    await page.goto("/contacts");
    await page.getByRole("heading", { name: "Contacts", exact: true }).first().waitFor();
    for (const label of ["Quick Upload & Send", "Upload CSV", "Add Contact"])
      await page.getByRole("link", { name: label }).waitFor();
    assert.equal(
      await page.getByRole("link", { name: "Quick Upload & Send" }).getAttribute("href"),
      "/contacts/quick-send",
    );

    await clickTo(page, page.getByRole("link", { name: "Add Contact" }), BASE + "/contacts/new");
    const dialog = page.getByRole("dialog", { name: "Add Contact" });
    await dialog.waitFor();
    // conform marks the form novalidate once hydrated; from then on the same zod schema checks in the browser.
    if (mode.javaScriptEnabled) await page.locator("form#contact-new[novalidate]").waitFor();
    const posts = [];
    page.on("request", (r) => r.method() === "POST" && posts.push(r.url()));
    // Empty: blocked in the browser either way (conform with JS, the `required` attribute without).
    await dialog.getByRole("button", { name: "Add Contact" }).click();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(posts.length, 0);
    assert.equal(await dialog.getByLabel("First Name").evaluate((el) => el.validity.valueMissing), true);
    // Whitespace passes the browser's `required` check, so the server (or conform with JS) must catch it.
    await dialog.getByLabel("First Name").fill("   ");
    await dialog.getByLabel("Last Name").fill(last);
    await dialog.getByLabel("Phone").fill(pretty(digits));
    await dialog.getByRole("button", { name: "Add Contact" }).click();
    await page.getByText("Required fields missing").first().waitFor();
    await dialog.getByText("First name is required").waitFor();
    // With JS nothing was sent; without JS the server answered the post.
    assert.equal(posts.length, mode.javaScriptEnabled ? 0 : 1);

    await dialog.getByLabel("First Name").fill("Erin");
    await dialog.getByLabel("Email").fill(`${last.toLowerCase()}@example.com`);
    await clickTo(page, dialog.getByRole("button", { name: "Add Contact" }), BASE + "/contacts");
    await toast(page, "Contact created").waitFor();
    await rowOf(page, last).getByText(e164(digits)).waitFor();

    // Creating the same phone again says so.
    await page.goto("/contacts/new");
    await dialog.getByLabel("First Name").fill("Other");
    await dialog.getByLabel("Last Name").fill("Person");
    await dialog.getByLabel("Phone").fill(digits);
    await dialog.getByRole("button", { name: "Add Contact" }).click();
    await dialog.getByText(`A contact with this phone number already exists (Erin ${last})`).waitFor();
    await page.goto("/contacts");

    await search(page, last);
    assert.equal(await page.getByTestId("contact-row").count(), 1);
    await clickTo(
      page,
      rowOf(page, last).getByRole("link", { name: `Edit Erin ${last}` }),
      /\/contacts\/\d+\/edit\?q=/,
    );
    const edit = page.getByRole("dialog", { name: "Edit Contact" });
    assert.equal(await edit.getByLabel("First Name").inputValue(), "Erin");
    await edit.getByLabel("Company").fill(`${last} Solar`);
    await clickTo(page, edit.getByRole("button", { name: "Save Changes" }), BASE + `/contacts?q=${last}`);
    await toast(page, "Contact updated").waitFor();
    await rowOf(page, last).getByText(`${last} Solar`).waitFor();

    // Search by the phone as people type it, and by a fragment of the company.
    await search(page, `${digits.slice(3, 6)}-${digits.slice(6)}`);
    await rowOf(page, last).waitFor();
    await search(page, `${last.slice(2)} sol`);
    await rowOf(page, last).waitFor();
    await search(page, tag("none"));
    await page.getByText("No contacts match").waitFor();

    await search(page, last);
    await clickTo(
      page,
      rowOf(page, last).getByRole("link", { name: `Delete Erin ${last}` }),
      /\/contacts\/\d+\/delete/,
    );
    const confirm = page.getByRole("dialog", { name: "Delete contact" });
    await confirm.getByText("Are you sure you want to delete this contact?").waitFor();
    await clickTo(page, confirm.getByRole("button", { name: "Delete" }), BASE + `/contacts?q=${last}`);
    await toast(page, "Contact deleted").waitFor();
    await page.getByText("No contacts match").waitFor();
    await context.close();
  });

  it("uploads a CSV with a bad row, previews it with the errors, imports it and downloads the list as CSV", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const last = tag("Csv");
    const [a, b] = [phone(), phone()];
    const file = [
      "First Name,Last Name,Phone Number,Email,Company",
      `Ann,${last},${pretty(a)},ann.${last.toLowerCase()}@example.com,Sunny Co`,
      `Broken,${last},,,`, // row 3: no phone
      `Bo,${last},${b},,"=cmd|' /C calc'!A0"`,
      `Ann,Again,${a},,`, // repeat of row 2
    ].join("\n");

    await page.goto("/contacts");
    await clickTo(page, page.getByRole("link", { name: "Upload CSV" }), BASE + "/contacts/upload");
    const dialog = page.getByRole("dialog", { name: "Upload CSV" });
    assert.equal(
      await dialog.getByRole("link", { name: "Download template" }).getAttribute("href"),
      "/contacts/template.csv",
    );
    assert.equal(await dialog.locator('input[type="file"]').getAttribute("accept"), ".csv");
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
    await clickTo(page, dialog.getByRole("button", { name: "Upload and preview" }), /\/contacts\/imports\/\d+$/);
    await continueMatch(page);

    const preview = page.getByRole("dialog", { name: "Preview import" });
    await preview.getByText("Row 3: Phone number is required").waitFor();
    await preview.getByTestId("import-preview").getByText(e164(a)).waitFor();
    await preview.getByTestId("import-preview").getByText(e164(b)).waitFor();
    assert.equal(await preview.getByTestId("import-preview").locator("tbody tr").count(), 2);
    await preview.getByLabel("Skip").check();
    await preview.getByRole("button", { name: "Import 2 contacts" }).click();
    await page
      .getByTestId("import-result")
      .getByText("Created 2, updated 0, skipped 1 duplicates, rejected 1 rows")
      .waitFor();
    await clickTo(page, page.getByRole("button", { name: "Done" }), BASE + "/contacts");
    await toast(page, "Contacts imported").waitFor();

    await search(page, last);
    await rowOf(page, "Ann").waitFor();
    await rowOf(page, "Bo").waitFor();
    assert.equal(await page.getByTestId("contact-row").count(), 2);

    await page.getByLabel("Format").selectOption("csv");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download" }).click(),
    ]);
    assert.equal(download.suggestedFilename(), "contacts.csv");
    const csv = await readFile(await download.path(), "utf8");
    const lines = csv.split("\r\n").filter(Boolean);
    assert.equal(lines[0], '"firstName","lastName","phone","email","company","address","city","state","zipCode"');
    assert.equal(lines.length, 3);
    assert.ok(lines.includes(`"Bo","${last}","'${e164(b)}","","'=cmd|' /C calc'!A0","","","",""`), lines.join("\n"));
    assert.ok(
      lines.some((l) =>
        l.startsWith(`"Ann","${last}","'${e164(a)}","ann.${last.toLowerCase()}@example.com","Sunny Co"`),
      ),
    );
    await context.close();
  });

  it("a re-import of the same file previews 0 new and 2 existing, and the result matches the preview (issue 24, item 12)", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const last = tag("Re");
    const file = [
      "First Name,Last Name,Phone Number",
      `Rae,${last},${pretty(phone())}`,
      `Rob,${last},${pretty(phone())}`,
    ].join("\n");
    const importOnce = async (button, duplicateMode) => {
      await uploadCsv(page, file);
      await continueMatch(page);
      const preview = page.getByRole("dialog", { name: "Preview import" });
      await preview.getByLabel(duplicateMode).check();
      await preview.getByRole("button", { name: button }).click();
      return preview;
    };
    await importOnce("Import 2 contacts", "Skip");
    await page
      .getByTestId("import-result")
      .getByText("Created 2, updated 0, skipped 0 duplicates, rejected 0 rows")
      .waitFor();

    await uploadCsv(page, file);
    await continueMatch(page);
    const preview = page.getByRole("dialog", { name: "Preview import" });
    assert.equal((await preview.getByTestId("import-new").innerText()).trim(), "0 new");
    assert.equal((await preview.getByTestId("import-existing").innerText()).trim(), "2 already in Contacts");
    await preview.getByTestId("import-existing-explained").getByText("2 with the same phone").waitFor();
    assert.equal(await preview.getByRole("button", { name: "Import 2 contacts" }).count(), 0);
    await preview.getByLabel("Update").check();
    await preview.getByRole("button", { name: "Import: 0 new, 2 existing" }).click();
    await page
      .getByTestId("import-result")
      .getByText("Created 0, updated 2, skipped 0 duplicates, rejected 0 rows")
      .waitFor();
    await context.close();
  });

  it("an imported list's consent record (seller, wording, what it covers) is kept and shown in each new contact's TCPA packet (issue 29 item 2)", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user, PHONE_WINDOW);
    const last = tag("Cr");
    await uploadCsv(page, ["First Name,Last Name,Phone Number", `Cora,${last},${pretty(phone())}`].join("\n"));
    await continueMatch(page);
    const preview = page.getByRole("dialog", { name: "Preview import" });
    const consent = preview.getByTestId("import-consent");
    // Bounded before anything is stored: an over-long seller is refused with the field's limit, nothing imported.
    await consent.getByLabel("Consent obtained by").evaluate((el) => el.removeAttribute("maxlength"));
    await consent.getByLabel("Consent obtained by").fill("x".repeat(201));
    await preview.getByRole("button", { name: "Import 1 contact" }).click();
    await page.getByText("The seller's name must be at most 200 characters").first().waitFor();
    const wording = `I agree that Sun Solar may text me about solar (${last}). Reply STOP to opt out.`;
    const again = page.getByRole("dialog", { name: "Preview import" });
    await again.getByLabel("Consent obtained by").fill("Sun Solar LLC");
    await again.getByLabel("Consent wording").fill(wording);
    // Consent to appointment texts only (decision 072): no marketing text goes to the contacts it adds.
    await again.getByLabel("Consent covers").selectOption("informational");
    await assertFitsWidth(page, 390, "the import preview");
    await again.getByRole("button", { name: "Import 1 contact" }).click();
    await page.getByTestId("import-result").getByText("Created 1, updated 0").waitFor();

    const found = await (await context.request.get(`${BASE}/api/contacts?q=${last}`)).json();
    const id = found[0].id;
    await page.goto(`/contacts/${id}/tcpa-packet`);
    const entry = page
      .getByTestId("packet-entry")
      .filter({ hasText: "Consent with the imported list leads.csv (appointment texts only)" });
    await entry.getByText("Sun Solar LLC").waitFor();
    await entry.getByText(wording).waitFor();
    // The contact page's Lead card shows the same record.
    await page.goto(`/contacts/${id}`);
    const lead = page.getByTestId("lead-consent").filter({ hasText: "csv:leads.csv" });
    await lead.getByText("Seller named: Sun Solar LLC").waitFor();
    await lead.getByText(wording).waitFor();
    await lead.getByText("Covers: Appointment texts only").waitFor();
    await page.getByTestId("consent-appointments-only").waitFor();
    await context.close();
  });

  it("matches a Google Contacts export's columns (one set to Ignore), imports the mobile, and remembers the choice for the same headers", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const last = tag("Gc");
    const [home, mobile] = [phone(), phone()];
    // Google's columns, plus a label column named for this run so the header set is new to the server.
    const header = `Name,Given Name,Family Name,E-mail 1 - Type,E-mail 1 - Value,Phone 1 - Type,Phone 1 - Value,Phone 2 - Type,Phone 2 - Value,Address 1 - City,Address 1 - Region,Address 1 - Postal Code,Labels ${last}`;
    const file = [
      header,
      `Gia ${last},Gia,${last},* Home,gia.${last.toLowerCase()}@example.com,Home,${pretty(home)},Mobile,${pretty(mobile)},Albany,NY,12207,myContacts`,
    ].join("\n");
    const select = (match, column) => match.getByLabel(`Contact field for ${column}`, { exact: true });

    const match = await uploadCsv(page, file, "contacts.csv");
    assert.equal(await select(match, "Given Name").inputValue(), "firstName");
    assert.equal(await select(match, "Family Name").inputValue(), "lastName");
    assert.equal(await select(match, "Phone 2 - Value").inputValue(), "phone");
    assert.equal(await select(match, "E-mail 1 - Value").inputValue(), "email");
    assert.equal(await select(match, "Address 1 - City").inputValue(), "city");
    assert.equal(await select(match, `Labels ${last}`).inputValue(), "");
    assert.equal(await match.getByTestId("columns-remembered").count(), 0);
    await select(match, "Address 1 - City").selectOption({ label: "Ignore" });
    await continueMatch(page);

    const preview = page.getByRole("dialog", { name: "Preview import" });
    await preview.getByTestId("import-preview").getByText(e164(mobile)).waitFor();
    assert.equal(await preview.getByTestId("import-preview").getByText("Albany").count(), 0);
    await preview.getByRole("button", { name: "Import 1 contact" }).click();
    await page
      .getByTestId("import-result")
      .getByText("Created 1, updated 0, skipped 0 duplicates, rejected 0 rows")
      .waitFor();

    const again = await uploadCsv(
      page,
      [header, `Hal ${last},Hal,${last},,,,,Mobile,${pretty(phone())},Troy,NY,12180,`].join("\n"),
      "more.csv",
    );
    await again.getByTestId("columns-remembered").waitFor();
    assert.equal(await select(again, "Address 1 - City").inputValue(), "");
    assert.equal(await select(again, "Phone 2 - Value").inputValue(), "phone");
    await continueMatch(page);
    await page
      .getByRole("dialog", { name: "Preview import" })
      .getByRole("button", { name: "Import 1 contact" })
      .waitFor();
    await context.close();
  });

  it("imports a file bigger than one chunk through the queue, the page following progress by itself", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const last = tag("Big");
    // 20,000 rows: the first 1,000 run inline and the queue takes 19 chunks, long enough (about a second here,
    // more on a loaded machine) that the page after the redirect still sees the import running. With 2,500 rows
    // the queue once finished the last 1,500 before a loaded CI machine's browser fetched that page.
    // Numbers come from two 10,000-number blocks no other run of this test uses: random numbers would meet
    // earlier ones now and then and be skipped as duplicates.
    const blocks = [freshBlock(), freshBlock()];
    const rows = Array.from(
      { length: 20_000 },
      (_, i) => `R${i},${last},${blocks[i % 2]}${String(i >> 1).padStart(4, "0")}`,
    );
    await uploadCsv(page, ["firstName,lastName,phone", ...rows].join("\n"), "big.csv");
    await continueMatch(page);
    const url = page.url();
    await page.getByRole("button", { name: "Import 20000 contacts" }).click();
    // Progress shows first, then the result with no reload from the test: a <noscript> meta refresh without JS,
    // revalidation polling with it. Waiting for either says which came first when this fails.
    const progress = page.getByTestId("import-progress").getByText(/Imported [\d,]+ of 20,000 contacts/);
    const result = page.getByTestId("import-result");
    await progress.or(result).first().waitFor({ timeout: 60_000 });
    assert.ok(
      await progress.isVisible(),
      `no progress before the result: ${await page.getByRole("dialog").innerText()}`,
    );
    await result.waitFor({ timeout: 60_000 });
    assert.match(await result.innerText(), /Created 20000, updated 0, skipped 0 duplicates, rejected 0 rows/);
    assert.equal(page.url(), url);
    await context.close();
  });

  it("refuses a broken file and a file without valid rows", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    await page.goto("/contacts/upload");
    const dialog = page.getByRole("dialog", { name: "Upload CSV" });
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: "broken.csv", mimeType: "text/csv", buffer: Buffer.from("just a header") });
    await dialog.getByRole("button", { name: "Upload and preview" }).click();
    await page.getByTestId("upload-error").getByText("Failed to parse CSV file. Please check the format.").waitFor();

    await dialog.locator('input[type="file"]').setInputFiles({
      name: "empty.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("firstName,lastName,phone\nNo,,\n"),
    });
    await clickTo(page, dialog.getByRole("button", { name: "Upload and preview" }), /\/contacts\/imports\/\d+$/);
    await continueMatch(page);
    const button = page.getByRole("button", { name: "No valid contacts" });
    await button.waitFor();
    assert.equal(await button.isDisabled(), true);
    await page.getByText("Row 2: Last name is required").waitFor();
    await context.close();
  });

  it("says 'No contacts to download' for an empty search", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const q = tag("none");
    await page.goto(`/contacts?q=${q}`);
    await clickTo(page, page.getByRole("button", { name: "Download" }), BASE + `/contacts?q=${q}`);
    await toast(page, "No contacts to download").waitFor();
    await context.close();
  });
});
