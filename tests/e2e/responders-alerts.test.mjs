// Auto-responders and smart alerts in a real browser, JS on and off (issue 13): a responder created through all five
// tabs, switched off and deleted; a test alert that matches a keyword bank; that alert acknowledged from the bell.
import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { atUrl, randomPhone, tag, until, simulateReply } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

describeEachMode("Auto-responders and alerts", (mode) => {
  it("creates a responder through all five tabs, switches it off and deletes it", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const name = tag("Resp");
    const keyword = tag("kw");
    await page.goto("/auto-responder");
    await page.getByRole("link", { name: "Create Responder" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Auto-Responder" });
    // Submitted empty: SPEC §8's one message, as worded (no browser bubble first, no title before it).
    await dialog.getByRole("button", { name: "Create Responder" }).click();
    const alert = dialog.getByRole("alert");
    await alert.waitFor();
    assert.equal((await alert.innerText()).trim(), "Please fill in name, keywords, and primary response.");
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("Keywords").fill(`${keyword}, solar quote`);
    // Every tab, in order: without JS each is a round trip that keeps what was typed.
    for (const [tab, field] of [
      ["AI Settings", "Max length (50–500)"],
      ["Responses", "Primary response"],
      ["Escalation", "Threshold (1–10)"],
      ["Analytics", null],
    ]) {
      await dialog.getByRole("tab", { name: tab }).click();
      await until(
        async () => (await dialog.getByRole("tab", { name: tab }).getAttribute("aria-selected")) === "true",
        `${tab} selected`,
      );
      if (field) await dialog.getByLabel(field).waitFor();
      if (tab === "Responses")
        await dialog.getByLabel("Primary response").fill(`Thanks! A rep will call you about ${keyword}.`);
    }
    await dialog.getByRole("tab", { name: "Basic" }).click();
    await until(async () => (await dialog.getByLabel("Name").inputValue()) === name, "the name kept across tabs");
    await dialog.getByRole("button", { name: "Create Responder" }).click();
    await atUrl(page, `${BASE}/auto-responder`);
    const row = page.getByTestId("responder-row").filter({ hasText: name });
    await row.waitFor();

    const toggle = row.getByRole("switch", { name: `Active: ${name}` });
    assert.equal(await toggle.getAttribute("aria-checked"), "true");
    await toggle.click();
    await until(
      async () =>
        (await page
          .getByTestId("responder-row")
          .filter({ hasText: name })
          .getByRole("switch")
          .getAttribute("aria-checked")) === "false",
      "switched off",
    );

    await page.getByRole("link", { name: `Delete ${name}` }).click();
    await page.getByRole("dialog", { name: "Delete auto-responder" }).getByRole("button", { name: "Delete" }).click();
    await until(
      async () => (await page.getByTestId("responder-row").filter({ hasText: name }).count()) === 0,
      "the row gone",
    );
    await context.close();
  });

  it("the loop guard holds a second auto-reply to the same number and the Auto Responder screen counts it (decision 021)", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const keyword = tag("loop");
    const created = await context.request.post(BASE + "/api/auto-responders", {
      data: {
        name: tag("Loop"),
        keywords: [keyword],
        responses: { primary: `Thanks! (${keyword})` },
        escalation: { enabled: false },
      },
      headers: { Origin: BASE },
    });
    assert.equal(created.status(), 201);
    const { id } = await created.json();
    const held = async () =>
      Number((/^(\d+)/.exec(await page.getByTestId("loop-guard-held").innerText()) ?? [])[1] ?? NaN);
    await page.goto("/auto-responder");
    const before = await held();
    // Two texts from one number through the webhook's code path (the Message Center's simulated reply), as a bot
    // answering the auto-reply with the keyword would send them.
    const from = randomPhone();
    for (const body of [`${keyword} please`, `${keyword} please`]) {
      await simulateReply(page, from, body);
    }
    await until(
      async () => {
        await page.goto("/auto-responder");
        return (await held()) >= before + 1;
      },
      "the held reply counted on the Auto Responder screen",
      30_000,
    );
    assert.match(await page.getByTestId("loop-guard-held").innerText(), /repl(y|ies) held by the loop guard today/);
    await context.request.put(`${BASE}/api/auto-responders/${id}`, {
      data: { isActive: false },
      headers: { Origin: BASE },
    });
    await context.close();
  });

  it("a test alert matches a keyword bank, and its alert is acknowledged from the bell", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const keyword = tag("zap");
    const bank = await context.request.post(BASE + "/api/keyword-banks", {
      data: { category: "Pricing Concerns", keywords: [keyword], priority: "high", alertProfileId: null },
      headers: { Origin: BASE },
    });
    assert.equal(bank.status(), 201);

    const text = `How much is the ${keyword} package? ${tag()}`;
    await page.goto("/test-smart-alerts");
    await page.getByTestId("test-alert-form").getByLabel("Message").fill(text);
    await page.getByRole("button", { name: "Run Test" }).click();
    const result = page.getByTestId("test-alert-result");
    await result.getByText(`Pricing Concerns (${keyword})`).first().waitFor();

    await page.getByTestId("bell").click();
    await atUrl(page, /\/alerts/);
    const item = page.getByTestId("alert-item").filter({ hasText: text });
    await item.waitFor();
    await item.getByRole("button", { name: "Acknowledge" }).click();
    await until(
      async () => (await page.getByTestId("alert-item").filter({ hasText: text }).count()) === 0,
      "gone from Unacknowledged",
    );
    await page.goto("/alerts?status=acknowledged");
    await page.getByTestId("alert-item").filter({ hasText: text }).waitFor();
    await context.close();
  });
});
