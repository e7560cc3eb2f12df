// Organisation → Savings estimates → a state's incentive in a real browser, JS on and off, on a 390 px phone (issue 28
// item 4): a superuser sets one (refused beside the field when it is over the bound), sees it listed with its source,
// then clears it with 0. What it does to an estimate is app/savings/savings.test.ts's.
import assert from "node:assert/strict";
import { it } from "node:test";
import { describeEachMode, PHONE_WINDOW, sharedBrowser, signedInPage } from "./browser.mjs";
import { assertFitsWidth, toast } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

describeEachMode("a state's incentive", (mode) => {
  it("a superuser sets one, a value over the bound is refused beside its field, and 0 clears it", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin, PHONE_WINDOW);
    await page.goto("/organisation");
    const form = page.getByTestId("state-incentive");
    await assertFitsWidth(page, 390, "Organisation with the incentive form");
    const save = async (dollars, note = "") => {
      await form.getByLabel("State").selectOption("WY");
      await form.getByLabel("Incentive ($)").fill(dollars);
      await form.getByLabel("Source (shown in the basis)").fill(note);
      await form.getByRole("button", { name: "Save incentive" }).click();
    };

    await save("60001");
    await page
      .getByTestId("state-incentive")
      .getByText("Incentive: whole dollars from 0 to 50,000", { exact: true })
      .waitFor();
    assert.doesNotMatch(await page.getByTestId("incentives-set").innerText(), /WY/);

    await save("$1,500", "Wyoming test rebate, 2026");
    await toast(page, "Incentive for WY saved").waitFor();
    assert.match(await page.getByTestId("incentives-set").innerText(), /WY \$1,500 \(Wyoming test rebate, 2026\)/);

    // Cleared again, so no other test's estimate for Wyoming carries it.
    await save("0");
    await toast(page, "Incentive for WY cleared").waitFor();
    assert.doesNotMatch(await page.getByTestId("incentives-set").innerText(), /WY/);
    await context.close();
  });
});
