import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { atUrl, phone, simulateReply, tag, until } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

// Issue 27 items 1 and 2 (decision 050): an uploaded file's Owner column gives each row its owner (an unknown owner
// is a row problem in the preview), and an owned contact's matching reply alerts its owner first — the profile's
// own recipient waits for the profile's owner-first delay. JS on and off.
const browser = sharedBrowser();
const rep = E2E_USERS.user;

describeEachMode("owners from a file and owner-first alerts", (mode) => {
  it("an Owner column owns each row; the owned contact's hot reply goes to the owner first", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin);
    const last = tag("Own");
    const [mine, unknown] = [`+1${phone()}`, `+1${phone()}`];
    const file = [
      "First Name,Last Name,Phone,Contact Owner",
      `Olive,${last},${mine},${rep.email.toUpperCase()}`,
      `Nobody,${last},${unknown},nobody-${last}@example.com`,
    ].join("\n");

    // Upload → Match columns (the Owner column guessed) → preview with the unknown owner as row 3's problem.
    await page.goto("/contacts/upload");
    const upload = page.getByRole("dialog", { name: "Upload CSV" });
    await upload
      .locator('input[type="file"]')
      .setInputFiles({ name: "owners.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
    await upload.getByRole("button", { name: "Upload and preview" }).click();
    await atUrl(page, /\/contacts\/imports\/\d+$/);
    const match = page.getByRole("dialog", { name: "Match columns" });
    assert.equal(await match.getByLabel("Contact field for Contact Owner", { exact: true }).inputValue(), "owner");
    await match.getByRole("button", { name: "Continue to preview" }).click();
    const preview = page.getByRole("dialog", { name: "Preview import" });
    await preview.getByText(`Row 3: Owner "nobody-${last}@example.com" is not an active user`).waitFor();
    await preview.getByText("1 row names its own owner", { exact: false }).waitFor();
    await preview.getByRole("button", { name: "Import 1 contact" }).click();
    await page.getByTestId("import-result").waitFor();

    // The contact's page names the rep as its owner.
    await page.goto(`/contacts?q=${encodeURIComponent(last)}`);
    await page.getByTestId("contact-row").filter({ hasText: last }).getByRole("link").first().click();
    await atUrl(page, /\/contacts\/\d+$/);
    await page.getByTestId("contact-owner").getByText(`${rep.first} ${rep.last}`).waitFor();

    // An alert profile whose recipient waits 30 minutes for the owner; its keyword in the contact's reply.
    const keyword = tag("hot");
    const staff = `${tag("closers")}@helio.local`.toLowerCase();
    const created = await context.request.post(BASE + "/api/alert-profiles", {
      data: {
        name: tag("Closers"),
        keywords: [keyword],
        email: staff,
        priority: "high",
        escalationTime: 60,
        ownerEscalationMinutes: 30,
      },
      headers: { Origin: BASE },
    });
    assert.equal(created.status(), 201, await created.text());
    const profile = await created.json();
    const text = `Ready to sign, ${keyword}? ${tag()}`;
    await simulateReply(page, mine, text);

    // The alert's record: sent to the owner now, to the profile's recipient only if nobody answers in time.
    await until(
      async () => {
        await page.goto("/alerts");
        return (await page.getByTestId("alert-item").filter({ hasText: text }).count()) > 0;
      },
      "the alert listed",
      30_000,
    );
    const routing = page.getByTestId("alert-item").filter({ hasText: text }).getByTestId("alert-routing");
    assert.match(
      await routing.innerText(),
      new RegExp(
        `^Sent to the owner, ${rep.first} ${rep.last}; goes to ${staff.replace(/[.]/g, "\\.")} at \\d\\d:\\d\\d UTC unless someone answers first$`,
      ),
    );
    await context.request.put(`${BASE}/api/alert-profiles/${profile.id ?? profile.profile?.id}`, {
      data: { isActive: false },
      headers: { Origin: BASE },
    });
    await context.close();
  });
});
