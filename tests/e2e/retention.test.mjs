// Message retention in a real browser, JS on and off (issue 22, decision 017): the Message Center says how long
// messages stay, a superuser reaches the archive screen from it and sets the period on Organisation; a standard user
// sees the sentence without the link and cannot open the screen. (Archiving and downloads themselves run against real
// D1 and R2 in app/messaging/archive-old-messages.test.ts: here no message is old enough.)
import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { atUrl } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

describeEachMode("Message retention", (mode) => {
  it("the Message Center names the retention; a superuser opens the archives and changes the period", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin);
    await page.goto("/messages");
    assert.match(await page.getByTestId("retention-note").innerText(), /Messages older than 18 months are archived\./);
    await page.getByRole("link", { name: "Download archives" }).click();
    await atUrl(page, `${BASE}/messages/archives`);
    await page.getByText("Nothing archived yet").waitFor();

    await page.locator("#content").getByRole("link", { name: "Organisation" }).click();
    await atUrl(page, `${BASE}/organisation`);
    const months = page.getByLabel("Keep messages for (months)");
    assert.equal(await months.inputValue(), "18");
    await months.fill("24");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByTestId("toast-title").getByText("Organisation settings saved").waitFor();
    await page.goto("/messages");
    assert.match(await page.getByTestId("retention-note").innerText(), /Messages older than 24 months are archived\./);

    // Back to the default for the other tests.
    await page.goto("/organisation");
    await page.getByLabel("Keep messages for (months)").fill("18");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByTestId("toast-title").getByText("Organisation settings saved").waitFor();
    await context.close();
  });

  it("a standard user reads the sentence but has no link and no archive screen", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    await page.goto("/messages");
    assert.match(await page.getByTestId("retention-note").innerText(), /months are archived\./);
    assert.equal(await page.getByRole("link", { name: "Download archives" }).count(), 0);
    const res = await page.goto("/messages/archives");
    assert.equal(res?.status(), 403);
    await context.close();
  });
});
