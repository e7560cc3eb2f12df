import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, PHONE_WINDOW, sharedBrowser, signedInPage } from "./browser.mjs";
import { assertFitsWidth, phone, simulateReply, tag, toast, until } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

// The campaign pre-start check (issue 29 item 4): a draft campaign's first step judged for its contacts, the list as
// CSV, and Start from the dialog — on a 390 px phone, JS on and off. The rules themselves are unit-tested
// (app/campaigns/check-campaign-start.test.ts).
const browser = sharedBrowser();

describeEachMode("campaign pre-start check", (mode) => {
  it("a draft's Check shows who the first step reaches and who is skipped, lists them, and starts the campaign", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user, PHONE_WINDOW);
    const post = async (path, data) => {
      const res = await context.request.post(BASE + path, { data, headers: { Origin: BASE } });
      assert.equal(res.status(), 201, await res.text());
      return res.json();
    };
    const last = tag("Chk");
    const ana = await post("/api/contacts", { firstName: "Ana", lastName: last, phone: `+1${phone()}` });
    const bo = await post("/api/contacts", { firstName: "Bo", lastName: last, phone: `+1${phone()}` });
    // Bo texted STOP: the check skips him.
    await simulateReply(page, bo.phone, "STOP");
    const name = tag("Check");
    const campaign = await post("/api/campaigns", { name, promoCode: "SUN50", contactIds: [ana.id, bo.id] });
    await post("/api/campaign-steps", {
      campaignId: campaign.id,
      name: "Hello",
      content: "Hi {{firstName}}, {{promoCode}} takes $500 off. Reply STOP to opt out",
    });

    const dialog = page.getByRole("dialog", { name: "Check before starting" });
    await until(async () => {
      await page.goto(`/campaigns/${campaign.id}/check`);
      return (await dialog.getByTestId("check-recipients").innerText()).trim() === "1";
    }, "Bo's STOP recorded");
    await page.goto("/campaigns");
    const card = page.getByRole("article", { name });
    await card.getByRole("link", { name: `Check ${name} before starting` }).click();
    await dialog.getByTestId("check-step").waitFor();
    assert.match(await dialog.getByTestId("check-step").innerText(), /Step 1 \(SMS\), at the start: due .* UTC/);
    assert.match(await dialog.getByTestId("check-step").innerText(), /Checked for 2 contacts/);
    assert.equal((await dialog.getByTestId("check-recipients").innerText()).trim(), "1");
    assert.match(await dialog.getByTestId("check-skipped").innerText(), /opted out 1/);
    await assertFitsWidth(page, 390, "the campaign check");

    // The list: one row per contact, as the download link serves it.
    const href = await dialog.getByRole("link", { name: "Download the list" }).getAttribute("href");
    const csv = await context.request.get(BASE + href);
    assert.equal(csv.status(), 200);
    assert.match(csv.headers()["content-disposition"], /attachment; filename="prestart-check-campaign-\d+-/);
    const text = await csv.text();
    // Sent at once, or deferred to her calling window by the real clock of this run: either way a recipient.
    assert.match(text, new RegExp(`"${ana.id}","Ana ${last}",.*"(Sends|Deferred)"`));
    assert.match(text, new RegExp(`"${bo.id}","Bo ${last}",.*"Skipped: opted out"`));

    await dialog.getByRole("button", { name: "Start campaign" }).click();
    await toast(page, "Campaign started").waitFor();
    await page.getByRole("article", { name }).getByText("running", { exact: true }).waitFor();
    // Started: the check is for drafts only.
    assert.equal(
      await page
        .getByRole("article", { name })
        .getByRole("link", { name: /^Check / })
        .count(),
      0,
    );
    await context.close();
  });
});
